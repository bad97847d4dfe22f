import type { AuthKey } from "../../runtime/http-guard/index.js";

/** The test keys of the keys-and-scopes suites: two full clients, one key per scope, an agent-narrowed key, admin. */
export const TEST_KEYS = {
  alice: {
    id: "alice",
    token: "tsk-alice-7c1e0f9a2b3d4c5e6f708192a3b4c5d6",
    scopes: ["runs", "sessions:read", "approvals"],
  },
  bob: {
    id: "bob",
    token: "tsk-bob-0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    scopes: ["runs", "sessions:read", "approvals"],
  },
  runner: { id: "runner", token: "tsk-runner-11223344556677889900aabbccddeeff", scopes: ["runs"] },
  reader: { id: "reader", token: "tsk-reader-ffeeddccbbaa00998877665544332211", scopes: ["sessions:read"] },
  approver: { id: "approver", token: "tsk-approver-5a5a5a5a6b6b6b6b7c7c7c7c8d8d8d8d", scopes: ["approvals"] },
  helperOnly: {
    id: "helper-only",
    token: "tsk-helper-only-9e9e9e9e8f8f8f8f7a7a7a7a",
    scopes: ["runs"],
    agents: ["helper"],
  },
  ops: { id: "ops", token: "tsk-ops-0f0e0d0c0b0a09080706050403020100", scopes: ["admin"] },
} as const satisfies Record<string, AuthKey>;

/** The legacy `gateway.auth.token` of the suites (the admin key "admin"). */
export const LEGACY_TOKEN = "tsk-legacy-admin-1234567890abcdef1234567890";

/** Every key of the suites as `authKeys`. */
export const ALL_TEST_KEYS: AuthKey[] = Object.values(TEST_KEYS);

/** Every token the suites use: none of them may ever appear in a log line or a session log. */
export const ALL_TEST_TOKENS: string[] = [...ALL_TEST_KEYS.map((key) => key.token), LEGACY_TOKEN];

/** Who sends a probe: nobody, a wrong token, one of the keys, or the legacy token. */
export type ProbeCaller = "none" | "wrong" | keyof typeof TEST_KEYS | "legacy";

/** The `Authorization` header of a probe caller. */
export function authorizationOf(caller: ProbeCaller): Record<string, string> {
  if (caller === "none") return {};
  if (caller === "wrong") return { authorization: "Bearer tsk-not-a-key-00000000000000000000" };
  if (caller === "legacy") return { authorization: `Bearer ${LEGACY_TOKEN}` };
  return { authorization: `Bearer ${TEST_KEYS[caller].token}` };
}
