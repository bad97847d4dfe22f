import type { Context } from "hono";
import type { Caller } from "../http-guard/index.js";
import { callerOf, requireAgentAllowed } from "./caller-access.js";
import type { GatewayContext } from "./gateway-context.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { DEFAULT_AGENT_ID, MAX_REMEMBERED_RESPONSES } from "./limits.js";
import { agentFromModel, agentModelName } from "./model-agent.js";
import { AGENT_HEADER, newSessionKey, readAgentId, readSessionKey, SESSION_HEADER } from "./run-target.js";
import { clientSessionName, ownsSession, storedSessionKey } from "./session-owner.js";

/**
 * The agent and session a run goes to: `sessionKey` is the stored key (per client key, see
 * `storedSessionKey`), `sessionName` the name the client knows it by (the `x-toolsift-session` answer), and
 * `keyId` the key that asked for the run (absent for the trusted loopback caller, who presented none).
 */
export type RunTarget = { agentId: string; sessionKey: string; sessionName: string; keyId?: string };

/**
 * Picks the agent and session of a run: `previous_response_id` continues the session that produced it;
 * otherwise the agent named by `x-toolsift-agent` or by the `model` (`toolsift` or `toolsift/<agentId>`;
 * default `main`) and the session named by `x-toolsift-session` (default: a new session). A header and a
 * model naming different agents, or either contradicting `previous_response_id`, are a 400; an unknown id or
 * agent a 404, and so is the id of another key's response (no oracle); an agent the caller's key may not use a
 * 403. The session name is mapped to the caller's own stored session at the end (`storedSessionKey`).
 */
export function resolveRunTarget(
  c: Context,
  gateway: GatewayContext,
  request: { previousResponseId?: string; model?: string },
): RunTarget {
  const { previousResponseId } = request;
  const caller = callerOf(c);
  const agentHeader = c.req.header(AGENT_HEADER);
  const headerAgent =
    agentHeader === undefined || agentHeader === "" ? undefined : readAgentId(agentHeader, AGENT_HEADER);
  const modelAgent = agentFromModel(request.model);
  if (headerAgent !== undefined && modelAgent !== undefined && headerAgent !== modelAgent) {
    throw invalidRequest(
      "model",
      `model "${agentModelName(modelAgent)}" names agent "${modelAgent}" but ${AGENT_HEADER} is "${headerAgent}": drop one.`,
    );
  }
  const named = headerAgent ?? modelAgent;
  const namedBy = headerAgent !== undefined ? AGENT_HEADER : "model";
  const agentId = named ?? DEFAULT_AGENT_ID;
  const sessionKey = readSessionKey(c.req.header(SESSION_HEADER), SESSION_HEADER);
  if (previousResponseId !== undefined) {
    const found = gateway.responses.lookup(previousResponseId);
    // Another key's response is answered as an unknown one: its existence is not revealed.
    const origin = found !== undefined && ownsSession(caller, found.sessionKey) ? found : undefined;
    if (origin === undefined) {
      throw notFound(
        `previous_response_id "${previousResponseId.slice(0, 80)}" is unknown to this gateway: it remembers the ` +
          `latest ${MAX_REMEMBERED_RESPONSES} responses until it restarts. Continue a session with the ` +
          `${SESSION_HEADER} header instead.`,
        "previous_response_id",
      );
    }
    if (named !== undefined && named !== origin.agentId) {
      throw invalidRequest(
        namedBy,
        `${namedBy} names agent "${named}" but previous_response_id belongs to agent "${origin.agentId}": drop one.`,
      );
    }
    const originName = clientSessionName(caller, origin.sessionKey);
    if (sessionKey !== undefined && storedSessionKey(caller, sessionKey) !== origin.sessionKey) {
      throw invalidRequest(
        SESSION_HEADER,
        `${SESSION_HEADER} is "${sessionKey}" but previous_response_id belongs to session "${originName}": drop one.`,
      );
    }
    requireKnownAgent(gateway, origin.agentId);
    requireAgentAllowed(caller, origin.agentId, "previous_response_id");
    return { ...origin, sessionName: originName, ...keyIdOf(caller) };
  }
  requireKnownAgent(gateway, agentId, named === undefined ? AGENT_HEADER : namedBy);
  requireAgentAllowed(caller, agentId, named === undefined ? AGENT_HEADER : namedBy);
  const sessionName = sessionKey ?? newSessionKey();
  return { agentId, sessionKey: storedSessionKey(caller, sessionName), sessionName, ...keyIdOf(caller) };
}

/** The key id a run records: none for the trusted loopback caller, who presented no key. */
function keyIdOf(caller: Caller): { keyId?: string } {
  return caller.trusted ? {} : { keyId: caller.keyId };
}

/** A 404 naming the known agents when `agentId` is not one of them. */
export function requireKnownAgent(gateway: GatewayContext, agentId: string, param = AGENT_HEADER): void {
  const known = gateway.runner.agentIds();
  if (known.includes(agentId)) return;
  throw notFound(`unknown agent "${agentId}": the configured agents are ${known.join(", ")}.`, param);
}
