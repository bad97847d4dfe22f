import type { Context } from "hono";
import { MAIN_AGENT_ID } from "../../runtime/config/index.js";
import type { Caller } from "../../runtime/http-guard/index.js";
import { MAX_REMEMBERED_RESPONSES } from "../../runtime/state/index.js";
import { callerOf, requireAgentAllowed } from "./caller-access.js";
import type { GatewayContext } from "./gateway-context.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { agentFromModel, agentModelName } from "./model-agent.js";
import type { TurnRequest } from "./request/turn-request.js";
import { AGENT_HEADER, readAgentId, readSessionKey, SESSION_HEADER } from "./run-target.js";
import { chooseSessionKey, conversationFingerprint, type SessionKeySource } from "./session-hints.js";
import { clientSessionName, ownsSession, storedSessionKey } from "./session-owner.js";

/**
 * The agent and session a run goes to: `sessionKey` is the stored key (per client key, see
 * `storedSessionKey`), `sessionName` the name the client knows it by (the `x-toolsift-session` answer),
 * `sessionSource` what named the session (`chooseSessionKey`), and `keyId` the key that asked for the run
 * (absent for the trusted loopback caller, who presented none).
 */
export type RunTarget = {
  agentId: string;
  sessionKey: string;
  sessionName: string;
  sessionSource: SessionKeySource;
  keyId?: string;
};

/**
 * Picks the agent and session of a run: `previous_response_id` continues the session that produced it;
 * otherwise the agent named by `x-toolsift-agent` or by the `model` (`toolsift/<agentId>`; the generic
 * `toolsift` defers to the header; default `main`) and the session `chooseSessionKey` names
 * (`x-toolsift-session`, else the request's session hints, else a fingerprint of the conversation). A header
 * and a model naming different agents, or either contradicting `previous_response_id`, are a 400; an unknown
 * id or agent a 404, and so is the id of another key's response (no oracle); an agent the caller's key may not
 * use a 403. The session name is mapped to the caller's own stored session at the end (`storedSessionKey`).
 */
export async function resolveRunTarget(
  c: Context,
  gateway: GatewayContext,
  request: Pick<
    TurnRequest,
    "previousResponseId" | "model" | "sessionHints" | "instructions" | "items" | "namedTarget"
  >,
): Promise<RunTarget> {
  const { previousResponseId } = request;
  const caller = callerOf(c);
  const agentHeader = request.namedTarget?.agent ?? c.req.header(AGENT_HEADER);
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
  const agentId = named ?? MAIN_AGENT_ID;
  const sessionKey = readSessionKey(
    request.namedTarget?.session ?? c.req.header(SESSION_HEADER),
    SESSION_HEADER,
  );
  if (previousResponseId !== undefined) {
    const found = await gateway.responses.lookup(previousResponseId);
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
    return {
      agentId: origin.agentId,
      sessionKey: origin.sessionKey,
      sessionName: originName,
      sessionSource: sessionKey === undefined ? "previous_response_id" : "header",
      ...keyIdOf(caller),
    };
  }
  requireKnownAgent(gateway, agentId, named === undefined ? AGENT_HEADER : namedBy);
  requireAgentAllowed(caller, agentId, named === undefined ? AGENT_HEADER : namedBy);
  const choice = chooseSessionKey({
    ...(sessionKey === undefined ? {} : { header: sessionKey }),
    hints: request.sessionHints ?? {},
    fingerprint: () =>
      conversationFingerprint({
        agentId,
        items: request.items,
        ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
      }),
  });
  return {
    agentId,
    sessionKey: storedSessionKey(caller, choice.sessionKey),
    sessionName: choice.sessionKey,
    sessionSource: choice.source,
    ...keyIdOf(caller),
  };
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
