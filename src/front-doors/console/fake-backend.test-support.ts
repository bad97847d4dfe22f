import type { Caller } from "../../runtime/http-guard/index.js";
import type { ConsoleBackend } from "./types.js";

/**
 * A `ConsoleBackend` for route tests that drive the console without a gateway: a key ring of the given
 * tokens, and every read a rejection ("not used by this test") unless the test overrides it.
 */
export function fakeConsoleBackend(
  callers: Record<string, Caller>,
  overrides: Partial<ConsoleBackend> = {},
): ConsoleBackend {
  const unused = () => Promise.reject(new Error("not used by this test"));
  return {
    keyed: true,
    readJson: async (c) => c.req.json(),
    identify: (token) => callers[token],
    callerFor: (keyId) => Object.values(callers).find((caller) => caller.keyId === keyId),
    agents: () => ["main"],
    listSessions: unused,
    readSession: unused,
    health: unused,
    healthChecks: unused,
    tools: unused,
    chat: unused,
    searchTools: unused,
    describeTool: unused,
    ...overrides,
  };
}
