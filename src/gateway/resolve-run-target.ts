import type { Context } from "hono";
import type { GatewayContext } from "./gateway-context.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { MAX_REMEMBERED_RESPONSES } from "./limits.js";
import { AGENT_HEADER, newSessionKey, readAgentId, readSessionKey, SESSION_HEADER } from "./run-target.js";

/** The agent and session a run goes to. */
export type RunTarget = { agentId: string; sessionKey: string };

/**
 * Picks the agent and session of a run: `previous_response_id` continues the session that produced it;
 * otherwise `x-toolsift-agent` (default `main`) and `x-toolsift-session` (default: a new session).
 * Headers that contradict `previous_response_id` are a 400; an unknown id or agent a 404.
 */
export function resolveRunTarget(
  c: Context,
  gateway: GatewayContext,
  previousResponseId?: string,
): RunTarget {
  const agentHeader = c.req.header(AGENT_HEADER);
  const agentId = readAgentId(agentHeader, AGENT_HEADER);
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
    if (agentHeader !== undefined && agentHeader !== "" && agentId !== origin.agentId) {
      throw invalidRequest(
        AGENT_HEADER,
        `${AGENT_HEADER} is "${agentId}" but previous_response_id belongs to agent "${origin.agentId}": drop one.`,
      );
    }
    if (sessionKey !== undefined && sessionKey !== origin.sessionKey) {
      throw invalidRequest(
        SESSION_HEADER,
        `${SESSION_HEADER} is "${sessionKey}" but previous_response_id belongs to session "${origin.sessionKey}": drop one.`,
      );
    }
    requireKnownAgent(gateway, origin.agentId);
    return { agentId: origin.agentId, sessionKey: origin.sessionKey };
  }
  requireKnownAgent(gateway, agentId);
  return { agentId, sessionKey: sessionKey ?? newSessionKey() };
}

/** A 404 naming the known agents when `agentId` is not one of them. */
export function requireKnownAgent(gateway: GatewayContext, agentId: string, param = AGENT_HEADER): void {
  const known = gateway.runner.agentIds();
  if (known.includes(agentId)) return;
  throw notFound(`unknown agent "${agentId}": the configured agents are ${known.join(", ")}.`, param);
}
