import { describe, expect, it } from "vitest";
import { createApprovalBroker, type PendingApproval } from "../../runtime/approvals/index.js";
import { startTestGateway, type TestGateway } from "./gateway.test-support.js";
import {
  ALL_TEST_KEYS,
  ALL_TEST_TOKENS,
  authorizationOf,
  LEGACY_TOKEN,
  type ProbeCaller,
} from "./gateway-keys.test-support.js";

// Every route that runs, reads or decides, against every kind of caller: no token, a wrong token, a key per
// scope, two full client keys (alice owns the session, response and approval probed; bob is a foreign key),
// an agent-narrowed key, an admin key and the legacy token. Each cell is the status the probe must get.

type Route = {
  name: string;
  method: "GET" | "HEAD" | "POST";
  /** The path, given the ids of alice's session name, response and pending approval. */
  path: (fixture: Fixture) => string;
  body?: unknown;
  /** Anthropic error shape (the Messages API) instead of OpenAI's. */
  anthropic?: boolean;
  expected: Record<ProbeCaller, number>;
};

type Fixture = { sessionName: string; responseId: string; approvalId: string };

const CALLERS: ProbeCaller[] = [
  "none",
  "wrong",
  "alice",
  "bob",
  "runner",
  "reader",
  "approver",
  "helperOnly",
  "ops",
  "legacy",
];

/** The statuses of one route, one per caller in the order of CALLERS. */
type StatusRow = [
  none: number,
  wrong: number,
  alice: number,
  bob: number,
  runner: number,
  reader: number,
  approver: number,
  helperOnly: number,
  ops: number,
  legacy: number,
];

function statuses(...row: StatusRow): Record<ProbeCaller, number> {
  const entries = CALLERS.map((caller, index) => [caller, row[index]]);
  return Object.fromEntries(entries) as Record<ProbeCaller, number>;
}

// expected: statuses(none, wrong, alice, bob, runner, reader, approver, helperOnly, ops, legacy)
const ROUTES: Route[] = [
  {
    name: "POST /v1/responses",
    method: "POST",
    path: () => "/v1/responses",
    body: { input: "hi" },
    expected: statuses(401, 401, 200, 200, 200, 403, 403, 403, 200, 200),
  },
  {
    name: "POST /v1/responses on agent helper",
    method: "POST",
    path: () => "/v1/responses",
    body: { input: "hi", model: "toolsift/helper" },
    expected: statuses(401, 401, 200, 200, 200, 403, 403, 200, 200, 200),
  },
  {
    name: "POST /v1/chat/completions",
    method: "POST",
    path: () => "/v1/chat/completions",
    body: { messages: [{ role: "user", content: "hi" }] },
    expected: statuses(401, 401, 200, 200, 200, 403, 403, 403, 200, 200),
  },
  {
    name: "POST /v1/messages",
    method: "POST",
    path: () => "/v1/messages",
    body: { model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "hi" }] },
    anthropic: true,
    expected: statuses(401, 401, 200, 200, 200, 403, 403, 403, 200, 200),
  },
  {
    name: "POST /v1/messages/count_tokens (a run route; this runner has no counter: 404 once scope and agent pass)",
    method: "POST",
    path: () => "/v1/messages/count_tokens",
    body: { model: "toolsift", messages: [{ role: "user", content: "hi" }] },
    anthropic: true,
    expected: statuses(401, 401, 404, 404, 404, 403, 403, 403, 404, 404),
  },
  {
    name: "GET /v1/tools/effective (agent main)",
    method: "GET",
    path: () => "/v1/tools/effective",
    expected: statuses(401, 401, 200, 200, 200, 403, 403, 403, 200, 200),
  },
  {
    name: "GET /v1/tools/effective?agent=helper",
    method: "GET",
    path: () => "/v1/tools/effective?agent=helper",
    expected: statuses(401, 401, 200, 200, 200, 403, 403, 200, 200, 200),
  },
  {
    name: "GET /v1/models (any valid key)",
    method: "GET",
    path: () => "/v1/models",
    expected: statuses(401, 401, 200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    name: "GET /v1/responses/:id (alice's)",
    method: "GET",
    path: (fixture) => `/v1/responses/${fixture.responseId}`,
    expected: statuses(401, 401, 200, 404, 403, 404, 403, 403, 200, 200),
  },
  {
    name: "GET /v1/sessions",
    method: "GET",
    path: () => "/v1/sessions",
    expected: statuses(401, 401, 200, 200, 403, 200, 403, 403, 200, 200),
  },
  {
    name: "HEAD /v1/sessions (HEAD is checked as its GET)",
    method: "HEAD",
    path: () => "/v1/sessions",
    expected: statuses(401, 401, 200, 200, 403, 200, 403, 403, 200, 200),
  },
  {
    name: "GET /v1/sessions/:key (alice's name: admins name stored keys, so theirs is another, absent session)",
    method: "GET",
    path: (fixture) => `/v1/sessions/${fixture.sessionName}`,
    expected: statuses(401, 401, 200, 404, 403, 404, 403, 403, 404, 404),
  },
  {
    name: "GET /v1/sessions/:key (alice's stored key)",
    method: "GET",
    path: (fixture) => `/v1/sessions/alice.${fixture.sessionName}`,
    expected: statuses(401, 401, 404, 404, 403, 404, 403, 403, 200, 200),
  },
  {
    name: "GET /v1/approvals",
    method: "GET",
    path: () => "/v1/approvals",
    expected: statuses(401, 401, 200, 200, 403, 403, 200, 403, 200, 200),
  },
  {
    name: "POST /v1/approvals/:id (a bad decision: the scope is checked first, then the body, so nothing is decided)",
    method: "POST",
    path: (fixture) => `/v1/approvals/${fixture.approvalId}`,
    body: { decision: "maybe" },
    expected: statuses(401, 401, 400, 400, 403, 403, 400, 403, 400, 400),
  },
  {
    name: "GET /v1/no-such-route (no route discovery without a key)",
    method: "GET",
    path: () => "/v1/no-such-route",
    expected: statuses(401, 401, 404, 404, 404, 404, 404, 404, 404, 404),
  },
  {
    name: "GET /healthz (open)",
    method: "GET",
    path: () => "/healthz",
    expected: statuses(200, 200, 200, 200, 200, 200, 200, 200, 200, 200),
  },
];

/** A gateway with every test key and the legacy token, where alice has a session, a response and a pending approval. */
async function startFixture(): Promise<{
  test: TestGateway;
  fixture: Fixture;
  release: () => Promise<void>;
}> {
  const broker = createApprovalBroker({ timeoutMs: 600_000 });
  const test = await startTestGateway({
    authKeys: ALL_TEST_KEYS,
    authToken: LEGACY_TOKEN,
    approvals: broker,
  });
  const alice = authorizationOf("alice");
  const sessionName = "alice-notes";
  const first = await test.post(
    "/v1/responses",
    { input: "remember 42" },
    { ...alice, "x-toolsift-session": sessionName },
  );
  expect(first.status).toBe(200);
  const responseId = ((await first.json()) as { id: string }).id;
  const held = test.post(
    "/v1/responses",
    { input: "exec:cat secrets" },
    { ...alice, "x-toolsift-session": "alice-exec" },
  );
  const approvalId = (await pendingFor(test, "ops", 1))[0]?.id ?? "";
  const release = async () => {
    broker.close();
    await held;
  };
  return { test, fixture: { sessionName, responseId, approvalId }, release };
}

/** The pending approvals `caller` lists, once at least `count` are published. */
async function pendingFor(test: TestGateway, caller: ProbeCaller, count: number): Promise<PendingApproval[]> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const response = await test.get("/v1/approvals", authorizationOf(caller));
    const body = (await response.json()) as { approvals: PendingApproval[] };
    if (body.approvals.length >= count) return body.approvals;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`fewer than ${count} approvals were published`);
}

describe("gateway keys: every route against every caller", () => {
  it.each(ROUTES)("$name", async (route) => {
    const { test, fixture, release } = await startFixture();
    try {
      for (const caller of CALLERS) {
        const headers = authorizationOf(caller);
        const path = route.path(fixture);
        const response =
          route.method === "POST"
            ? await test.post(path, route.body, headers)
            : await fetch(`${test.url}${path}`, { method: route.method, headers });
        const text = await response.text();
        expect({ caller, status: response.status }).toEqual({ caller, status: route.expected[caller] });
        for (const token of ALL_TEST_TOKENS) expect(text).not.toContain(token);
        if (route.method !== "HEAD" && (response.status === 401 || response.status === 403)) {
          const body = JSON.parse(text) as {
            type?: string;
            error: { type: string; code?: string; message: string };
          };
          if (route.anthropic === true) {
            expect(body.type).toBe("error");
            expect(body.error.type).toBe(
              response.status === 401 ? "authentication_error" : "permission_error",
            );
          } else {
            expect(body.error.code).toMatch(/^(invalid_api_key|insufficient_scope|agent_not_allowed)$/u);
          }
          if (response.status === 401) expect(response.headers.get("www-authenticate")).toBe("Bearer");
          // A 403 names what is missing: the scope, or the agent.
          if (response.status === 403)
            expect(body.error.message).toMatch(/lacks the scope "[a-z:]+"|may not use agent "main"/u);
        }
      }
    } finally {
      await release();
    }
    // No token in any log line, whatever was refused.
    for (const token of ALL_TEST_TOKENS) expect(test.logs.join("\n")).not.toContain(token);
  });
});

describe("gateway keys: the legacy token alone is one admin key", () => {
  it("runs, reads every session, lists and decides approvals; a wrong token is 401", async () => {
    const broker = createApprovalBroker({ timeoutMs: 600_000 });
    const test = await startTestGateway({ authToken: LEGACY_TOKEN, approvals: broker });
    const legacy = authorizationOf("legacy");
    const run = await test.post(
      "/v1/responses",
      { input: "hi" },
      { ...legacy, "x-toolsift-session": "kept-name" },
    );
    expect(run.status).toBe(200);
    // Admin keys name stored keys directly: a session keeps the name it had before keys existed.
    expect(run.headers.get("x-toolsift-session")).toBe("kept-name");
    expect((await test.get("/v1/sessions/kept-name", legacy)).status).toBe(200);
    const [header] = await test.sessions.read("main", "kept-name");
    expect(header).toMatchObject({ type: "session", keyId: "admin" });
    const held = test.post("/v1/responses", { input: "exec:ls" }, legacy);
    const [pending] = await pendingFor(test, "legacy", 1);
    expect(pending?.keyId).toBe("admin");
    const decided = await test.post(`/v1/approvals/${pending?.id}`, { decision: "allow" }, legacy);
    expect(decided.status).toBe(200);
    expect((await held).status).toBe(200);
    expect((await test.get("/v1/sessions", authorizationOf("wrong"))).status).toBe(401);
  });
});
