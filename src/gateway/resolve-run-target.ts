import type { Context } from "hono";
import type { GatewayContext } from "./gateway-context.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { DEFAULT_AGENT_ID, MAX_REMEMBERED_RESPONSES } from "./limits.js";
import { agentFromModel, agentModelName } from "./model-agent.js";
import { AGENT_HEADER, readAgentId, readSessionKey, SESSION_HEADER } from "./run-target.js";
import { chooseSessionKey, conversationFingerprint, type SessionKeySource } from "./session-hints.js";
import type { TurnRequest } from "./turn-request.js";

/** The agent and session a run goes to, and what named the session (`chooseSessionKey`). */
export type RunTarget = { agentId: string; sessionKey: string; sessionSource: SessionKeySource };

/**
 * Picks the agent and session of a run: `previous_response_id` continues the session that produced it;
 * otherwise the agent named by `x-toolsift-agent` or by the `model` (`toolsift/<agentId>`; the generic
 * `toolsift` defers to the header; default `main`) and the session `chooseSessionKey` picks
 * (`x-toolsift-session`, else the request's session hints, else a fingerprint of the conversation). A header and a model naming different agents, or either
 * contradicting `previous_response_id`, are a 400; an unknown id or agent a 404.
 */
export function resolveRunTarget(
  c: Context,
  gateway: GatewayContext,
  request: Pick<TurnRequest, "previousResponseId" | "model" | "sessionHints" | "instructions" | "items">,
): RunTarget {
  const { previousResponseId } = request;
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
    const origin = gateway.responses.lookup(previousResponseId);
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
    if (sessionKey !== undefined && sessionKey !== origin.sessionKey) {
      throw invalidRequest(
        SESSION_HEADER,
        `${SESSION_HEADER} is "${sessionKey}" but previous_response_id belongs to session "${origin.sessionKey}": drop one.`,
      );
    }
    requireKnownAgent(gateway, origin.agentId);
    const choice = chooseSessionKey({
      ...(sessionKey === undefined ? {} : { header: sessionKey }),
      previousResponseSession: origin.sessionKey,
      hints: {},
      fingerprint: () => "",
    });
    return { agentId: origin.agentId, sessionKey: choice.sessionKey, sessionSource: choice.source };
  }
  requireKnownAgent(gateway, agentId, named === undefined ? AGENT_HEADER : namedBy);
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
  return { agentId, sessionKey: choice.sessionKey, sessionSource: choice.source };
}

/** A 404 naming the known agents when `agentId` is not one of them. */
export function requireKnownAgent(gateway: GatewayContext, agentId: string, param = AGENT_HEADER): void {
  const known = gateway.runner.agentIds();
  if (known.includes(agentId)) return;
  throw notFound(`unknown agent "${agentId}": the configured agents are ${known.join(", ")}.`, param);
}
