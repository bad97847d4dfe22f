import type { ApprovalBroker } from "../../runtime/approvals/index.js";
import type { LogRingReader } from "../../runtime/environment/index.js";
import {
  type Caller,
  callerHasScope,
  callerMayUseAgent,
  type KeyRing,
  LOCAL_CALLER,
  type Scope,
} from "../../runtime/http-guard/index.js";
import type { ConsoleBackend } from "../console/index.js";
import { decideApproval, visibleApprovals } from "./approval-routes.js";
import { requireAgentAllowed } from "./caller-access.js";
import { consoleChat } from "./console-chat.js";
import { createHealthChecks, type GatewayDiagnostics } from "./console-health.js";
import { consoleToolSearch } from "./console-tool-search.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError, invalidRequest } from "./gateway-error.js";
import { MAX_APPROVAL_BODY_BYTES } from "./limits.js";
import { listSessionsFor, readHealth, readSessionFor } from "./read-routes.js";
import { readJsonBody } from "./request/read-json-body.js";
import { requireKnownAgent } from "./resolve-run-target.js";
import { readAgentId, readSessionKey } from "./run-target.js";
import { readSessionFilters } from "./session-filters.js";

/**
 * What the console reads and decides through: the same functions as `/v1/sessions`, `/v1/sessions/:key`,
 * `/v1/tools/effective` and `/v1/approvals`, with the same scope and ownership checks, so the console shows a key exactly what
 * the API shows it (and, with a shared state, the same on every gateway of a fleet).
 */
export function createConsoleBackend(
  gateway: GatewayContext,
  options: {
    keyRing: KeyRing | undefined;
    approvals: ApprovalBroker | undefined;
    logRing?: LogRingReader | undefined;
    diagnostics?: GatewayDiagnostics | undefined;
  },
): ConsoleBackend {
  const { keyRing, approvals, logRing } = options;
  return {
    keyed: keyRing !== undefined,
    readJson: (c, maxBytes) => readJsonBody(c, Math.min(maxBytes, MAX_APPROVAL_BODY_BYTES)),
    identify: (token) => {
      if (keyRing === undefined) return undefined;
      const caller = keyRing(undefined, token);
      return "status" in caller ? undefined : caller;
    },
    callerFor: (keyId) => (keyRing === undefined ? localCallerFor(keyId) : keyRing.callerFor(keyId)),
    agents: (caller) => gateway.runner.agentIds().filter((agentId) => callerMayUseAgent(caller, agentId)),
    listSessions: (caller, query) => {
      requireCallerScope(caller, "sessions:read", "the sessions page");
      return listSessionsFor(gateway, caller, {
        agentId: query.agent === undefined ? undefined : readAgentId(query.agent, "agent"),
        limit: undefined,
        after: query.after,
        ...(query.text === undefined ? {} : { text: query.text.toLowerCase() }),
        ...readSessionFilters(caller, { status: query.status, contains: query.contains, owner: query.key }),
      });
    },
    readSession: (caller, agentId, sessionKey) => {
      requireCallerScope(caller, "sessions:read", "a session's timeline");
      const key = readSessionKey(sessionKey, "key");
      if (key === undefined) throw invalidRequest("key", "the session key is missing.");
      return readSessionFor(gateway, caller, readAgentId(agentId, "agent"), key);
    },
    watch: (listener) => {
      const stops = [
        gateway.sessions.onAppended?.((agentId, sessionKey) =>
          listener({ kind: "session", agentId, sessionKey }),
        ),
        approvals?.onChange(() => listener({ kind: "approvals" })),
      ];
      return () => {
        for (const stop of stops) stop?.();
      };
    },
    health: async (caller) => {
      const health = await readHealth(gateway, caller);
      return { ...health.body, status: health.status };
    },
    healthChecks: createHealthChecks(options.diagnostics),
    ...(logRing === undefined
      ? {}
      : {
          logs: (caller: Caller) => {
            requireCallerScope(caller, "admin", "the logs page");
            return logRing;
          },
        }),
    tools: async (caller, agentId) => {
      requireCallerScope(caller, "runs", "the tools page");
      const agent = readAgentId(agentId, "agent");
      requireKnownAgent(gateway, agent, "agent");
      requireAgentAllowed(caller, agent, "agent");
      return gateway.runner.effectiveSurface(agent);
    },
    chat: (c, caller) => {
      requireCallerScope(caller, "runs", "the chat page");
      return consoleChat(gateway, approvals, c, caller);
    },
    ...consoleToolSearch(gateway),
    ...(approvals === undefined
      ? {}
      : {
          approvals: {
            pending: async (caller: Caller) => {
              requireCallerScope(caller, "approvals", "the approvals page");
              return { approvals: await visibleApprovals(approvals, caller) };
            },
            decide: (caller: Caller, id: string, body: unknown) => {
              requireCallerScope(caller, "approvals", "deciding an approval");
              return decideApproval(approvals, caller, id, body);
            },
          },
        }),
  };
}

/** Without keys: the trusted loopback caller for its own id, no caller for any key's id. */
function localCallerFor(keyId: string): Caller | undefined {
  return keyId === LOCAL_CALLER.keyId ? LOCAL_CALLER : undefined;
}

/** A 403 `insufficient_scope` unless the console's signed-in key holds `scope`. */
function requireCallerScope(caller: Caller, scope: Scope, what: string): void {
  if (callerHasScope(caller, scope)) return;
  throw new GatewayError(
    403,
    `key "${caller.keyId}" lacks the scope "${scope}" that ${what} needs: add "${scope}" to its scopes in gateway.auth.keys, or sign in with a key that has it.`,
    { code: "insufficient_scope" },
  );
}
