import type { Context, Hono } from "hono";
import { MAIN_AGENT_ID } from "../../runtime/config/index.js";
import { CALLER, type Caller, callerMayUseAgent, isAdminCaller } from "../../runtime/http-guard/index.js";
import type { SessionContentQuery } from "../../runtime/sessions/index.js";
import { MAX_REMEMBERED_RESPONSES, MAX_STORED_RESPONSE_BYTES } from "../../runtime/state/index.js";
import { callerOf, requireAgentAllowed } from "./caller-access.js";
import type { GatewayContext } from "./gateway-context.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { agentModelName, MODEL_NAME_PREFIX } from "./model-agent.js";
import { requireKnownAgent } from "./resolve-run-target.js";
import { STORAGE_RETRY_AFTER_SECONDS } from "./run-failure.js";
import { readAgentId, readSessionKey } from "./run-target.js";
import { readSessionFilters } from "./session-filters.js";
import { clientSessionName, ownsSession, sessionOwner, storedSessionKey } from "./session-owner.js";
import { readSessionPage } from "./session-page.js";

/** The `/healthz` reason for a caller that is not an admin: no path, no error detail. */
const HIDDEN_STORAGE_REASON =
  "the gateway's state (its state directory or state database) cannot be written; the gateway log (or /healthz with an admin key) says where and why.";

/**
 * Registers the read-only routes: `/healthz` (200 `{ ok: true, providers }`; 503 `{ ok: false, reason,
 * providers }` with `Retry-After` while the state directory cannot be written, the reason naming the
 * directory and the error only for an admin caller; 503 `{ ok: false, draining: true, providers }` while
 * draining; `providers` maps each provider id to `reachable` / `unreachable` / `unknown` from its last
 * request), `/v1/models` and `/v1/models/:model` (the agents as models; in Anthropic's shapes for a request
 * with `anthropic-version`, as Anthropic's clients send), `/v1/responses/:id` (a stored
 * response), `/v1/tools/effective`, `/v1/sessions` (one page, see session-page.ts; filtered by `status`,
 * `contains` and, for an admin, `owner`: session-filters.ts), `/v1/sessions/:key`. A key lists only the agents it may
 * run, and reads only its own sessions and stored responses (another key's are answered as unknown ones);
 * admin keys read all, and their session listing names each session's owner.
 */
export function registerReadRoutes(app: Hono, gateway: GatewayContext): void {
  const created = Math.floor(Date.now() / 1000);
  const models = (caller: Caller) =>
    listedModels(
      gateway.runner.agentIds().filter((agentId) => callerMayUseAgent(caller, agentId)),
      created,
      callerMayUseAgent(caller, MAIN_AGENT_ID),
    );
  // Anthropic's clients send `anthropic-version` with every request: they get Anthropic's model shapes.
  const anthropic = (c: Context) => c.req.header("anthropic-version") !== undefined;
  app.get("/v1/models", (c) => {
    const listed = models(callerOf(c));
    return c.json(anthropic(c) ? anthropicModelList(listed) : { object: "list", data: listed });
  });
  app.get("/v1/models/:model{.+}", (c) => {
    const name = c.req.param("model");
    const listed = models(callerOf(c));
    const model = listed.find((one) => one.id === name);
    if (!model) {
      throw notFound(
        `no model "${name.slice(0, 200)}": the models are the agents, ${listed.map((one) => one.id).join(", ")}.`,
        "model",
      );
    }
    return c.json(anthropic(c) ? anthropicModel(model) : model);
  });
  app.get("/v1/responses/:id", async (c) => {
    const id = c.req.param("id");
    const origin = await gateway.responses.lookup(id);
    // Another key's response is answered as one not stored: its existence is not revealed.
    const stored =
      origin !== undefined && ownsSession(callerOf(c), origin.sessionKey)
        ? await gateway.responses.stored(id)
        : undefined;
    if (stored === undefined) {
      throw notFound(
        `response "${id.slice(0, 80)}" is not stored: the gateway keeps the latest responses (up to ` +
          `${MAX_REMEMBERED_RESPONSES} and ${MAX_STORED_RESPONSE_BYTES / (1024 * 1024)} MiB) until it restarts, and none made with store: false.`,
        "id",
      );
    }
    return c.json(stored);
  });
  // Liveness is about storage: 503 while draining, or while the state directory cannot be written (the
  // store's probe, cached briefly). Providers are readiness, reported beside it, never a 503.
  app.get("/healthz", async (c) => {
    // The guard identifies a valid key here too: an admin's answer names the state directory.
    const health = await readHealth(gateway, c.get(CALLER));
    if (health.status === 503 && !("draining" in health.body)) {
      c.header("Retry-After", String(STORAGE_RETRY_AFTER_SECONDS));
    }
    return c.json(health.body, health.status);
  });

  app.get("/v1/tools/effective", async (c) => {
    const agentId = readAgentId(c.req.query("agent"), "agent");
    requireKnownAgent(gateway, agentId, "agent");
    requireAgentAllowed(callerOf(c), agentId, "agent");
    return c.json(await gateway.runner.effectiveSurface(agentId));
  });

  app.get("/v1/sessions", async (c) => {
    const agent = c.req.query("agent");
    const caller = callerOf(c);
    return c.json(
      await listSessionsFor(gateway, caller, {
        agentId: agent === undefined ? undefined : readAgentId(agent, "agent"),
        limit: c.req.query("limit"),
        after: c.req.query("after"),
        ...readSessionFilters(caller, {
          status: c.req.query("status"),
          contains: c.req.query("contains"),
          owner: c.req.query("owner"),
        }),
      }),
    );
  });

  app.get("/v1/sessions/:key", async (c) => {
    const sessionKey = readSessionKey(c.req.param("key"), "key");
    if (sessionKey === undefined) throw invalidRequest("key", "the session key is missing.");
    const agentId = readAgentId(c.req.query("agent"), "agent");
    return c.json(await readSessionFor(gateway, callerOf(c), agentId, sessionKey));
  });
}

/**
 * The gateway's health as `/healthz` answers it (and the console shows it): 503 while draining or while the
 * state cannot be written, the reason naming where and why only for an admin caller; providers beside it.
 */
export async function readHealth(gateway: GatewayContext, caller: Caller | undefined) {
  const providers = gateway.runner.providerStatus?.() ?? {};
  if (!gateway.tracker.accepting) {
    return { status: 503 as const, body: { ok: false, draining: true as const, providers } };
  }
  const storage = await gateway.probeStorage();
  if (storage !== undefined && !storage.writable) {
    const reason = caller !== undefined && isAdminCaller(caller) ? storage.reason : HIDDEN_STORAGE_REASON;
    return { status: 503 as const, body: { ok: false, reason, providers } };
  }
  return { status: 200 as const, body: { ok: true, providers } };
}

/** What one page of a caller's sessions is chosen by. */
export type SessionListQuery = {
  agentId: string | undefined;
  limit: string | undefined;
  after: string | undefined;
  /** Lowercase text the session's name as the caller knows it, or its agent, must contain. */
  text?: string;
  /** The key whose namespace holds the session (`sessionOwner`; an admin's listing shows it). */
  owner?: string;
  /** The session's last run status and text inside it (read from the logs, bounded per page). */
  content?: SessionContentQuery;
};

/**
 * One page of the sessions `caller` may read (`GET /v1/sessions`, and the console): its own, or every one for
 * an admin, whose listing names each session's owner; a key sees its own session names.
 */
export async function listSessionsFor(gateway: GatewayContext, caller: Caller, query: SessionListQuery) {
  const { agentId, text, owner, content } = query;
  const page = await readSessionPage(gateway.sessions, {
    limit: query.limit,
    after: query.after,
    ...(content === undefined ? {} : { content }),
    filter: (session) =>
      (agentId === undefined || session.agentId === agentId) &&
      ownsSession(caller, session.sessionKey) &&
      (owner === undefined || sessionOwner(session.sessionKey, gateway.namespacedKeyIds) === owner) &&
      (text === undefined ||
        session.agentId.toLowerCase().includes(text) ||
        clientSessionName(caller, session.sessionKey).toLowerCase().includes(text)),
  });
  // A key sees its own names; an admin sees stored keys and the key whose namespace holds each.
  const data = isAdminCaller(caller)
    ? page.data.map((session) => ({
        ...session,
        owner: sessionOwner(session.sessionKey, gateway.namespacedKeyIds),
      }))
    : page.data.map((session) => ({
        ...session,
        sessionKey: clientSessionName(caller, session.sessionKey),
      }));
  return { ...page, data };
}

/** One of `caller`'s sessions with its events (`GET /v1/sessions/:key`, and the console); 404 when not its own. */
export async function readSessionFor(
  gateway: GatewayContext,
  caller: Caller,
  agentId: string,
  sessionKey: string,
) {
  const events = await gateway.sessions.read(agentId, storedSessionKey(caller, sessionKey));
  if (events.length === 0) {
    throw notFound(
      `agent "${agentId}" has no session "${sessionKey}": GET /v1/sessions lists the sessions.`,
      "key",
    );
  }
  return { agentId, sessionKey, events };
}

/** An Anthropic model object (`GET /v1/models` with `anthropic-version`). */
type AnthropicModel = { type: "model"; id: string; display_name: string; created_at: string };

function anthropicModel(model: ListedModel): AnthropicModel {
  const agent = model.id === MODEL_NAME_PREFIX ? MAIN_AGENT_ID : model.id.slice(MODEL_NAME_PREFIX.length + 1);
  return {
    type: "model",
    id: model.id,
    display_name: model.id === MODEL_NAME_PREFIX ? `toolsift (agent ${agent})` : `toolsift agent ${agent}`,
    created_at: new Date(model.created * 1000).toISOString(),
  };
}

/** Anthropic's list page: every agent on one page. */
function anthropicModelList(listed: readonly ListedModel[]) {
  const data = listed.map(anthropicModel);
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

/** An OpenAI model object. */
type ListedModel = { id: string; object: "model"; created: number; owned_by: string };

/** The agents as models: `toolsift` (the default agent), then `toolsift/<agentId>` for each agent. */
function listedModels(agentIds: readonly string[], created: number, withDefault: boolean): ListedModel[] {
  const model = (id: string): ListedModel => ({ id, object: "model", created, owned_by: MODEL_NAME_PREFIX });
  if (!withDefault) return agentIds.map((agentId) => model(agentModelName(agentId)));
  const ids = agentIds.includes(MAIN_AGENT_ID) ? agentIds : [MAIN_AGENT_ID, ...agentIds];
  return [model(MODEL_NAME_PREFIX), ...ids.map((agentId) => model(agentModelName(agentId)))];
}
