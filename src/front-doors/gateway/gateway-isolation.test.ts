import { describe, expect, it } from "vitest";
import { createApprovalBroker, type PendingApproval } from "../../runtime/approvals/index.js";
import { startTestGateway, type TestGateway } from "./gateway.test-support.js";
import {
  ALL_TEST_KEYS,
  ALL_TEST_TOKENS,
  authorizationOf,
  type ProbeCaller,
} from "./gateway-keys.test-support.js";

// Isolation between client keys: alice opens a session, stores a response and has a call waiting for
// approval; bob (same scopes, another key) probes each of them. Every probe is refused, and refused in a way
// that reveals nothing (404 as for an unknown id, an empty list, a session of his own); admin sees all.

const ALICE = authorizationOf("alice");
const BOB = authorizationOf("bob");
const OPS = authorizationOf("ops");
const SESSION = "shared-name";
/** The session of alice's run held on its approval (another session, so her first one stays free). */
const EXEC_SESSION = "alice-exec";

type World = {
  test: TestGateway;
  responseId: string;
  approval: PendingApproval;
  release: () => Promise<void>;
};

async function aliceWorld(): Promise<World> {
  const broker = createApprovalBroker({ timeoutMs: 600_000 });
  const test = await startTestGateway({ authKeys: ALL_TEST_KEYS, approvals: broker });
  const first = await test.post(
    "/v1/responses",
    { input: "alice secret 42" },
    { ...ALICE, "x-toolsift-session": SESSION },
  );
  expect(first.status).toBe(200);
  expect(first.headers.get("x-toolsift-session")).toBe(SESSION);
  const responseId = ((await first.json()) as { id: string }).id;
  const held = test.post(
    "/v1/responses",
    { input: "exec:cat alice-file" },
    { ...ALICE, "x-toolsift-session": EXEC_SESSION },
  );
  const [approval] = await pending(test, "alice", 1);
  if (approval === undefined) throw new Error("no approval");
  return {
    test,
    responseId,
    approval,
    release: async () => {
      broker.close();
      await held;
    },
  };
}

async function pending(test: TestGateway, caller: ProbeCaller, atLeast: number): Promise<PendingApproval[]> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const response = await test.get("/v1/approvals", authorizationOf(caller));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { approvals: PendingApproval[] };
    if (body.approvals.length >= atLeast) return body.approvals;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`fewer than ${atLeast} approvals`);
}

type Probe = {
  name: string;
  probe: (world: World) => Promise<void>;
};

const ISOLATION_PROBES: Probe[] = [
  {
    name: "bob lists sessions: none of alice's",
    probe: async ({ test }) => {
      await test.post("/v1/responses", { input: "bob's own" }, { ...BOB, "x-toolsift-session": "bob-only" });
      const body = (await (await test.get("/v1/sessions", BOB)).json()) as {
        data: Array<{ sessionKey: string }>;
      };
      expect(body.data.map((session) => session.sessionKey)).toEqual(["bob-only"]);
    },
  },
  {
    name: "bob reads alice's session by her name: 404",
    probe: async ({ test }) => {
      expect((await test.get(`/v1/sessions/${SESSION}`, BOB)).status).toBe(404);
    },
  },
  {
    name: "bob reads alice's session by its stored key: 404",
    probe: async ({ test }) => {
      expect((await test.get(`/v1/sessions/alice.${SESSION}`, BOB)).status).toBe(404);
    },
  },
  {
    name: "bob reads alice's stored response: 404 worded as for an unknown id",
    probe: async ({ test, responseId }) => {
      const foreign = await test.get(`/v1/responses/${responseId}`, BOB);
      const unknown = await test.get("/v1/responses/resp_unknown", BOB);
      expect([foreign.status, unknown.status]).toEqual([404, 404]);
      const foreignMessage = ((await foreign.json()) as { error: { message: string } }).error.message;
      const unknownMessage = ((await unknown.json()) as { error: { message: string } }).error.message;
      expect(foreignMessage.replace(responseId, "ID")).toBe(unknownMessage.replace("resp_unknown", "ID"));
    },
  },
  {
    name: "bob continues alice's conversation with previous_response_id: 404 worded as for an unknown id",
    probe: async ({ test, responseId }) => {
      const foreign = await test.post(
        "/v1/responses",
        { input: "what was the secret?", previous_response_id: responseId },
        BOB,
      );
      const unknown = await test.post(
        "/v1/responses",
        { input: "x", previous_response_id: "resp_unknown" },
        BOB,
      );
      expect([foreign.status, unknown.status]).toEqual([404, 404]);
      const foreignMessage = ((await foreign.json()) as { error: { message: string } }).error.message;
      const unknownMessage = ((await unknown.json()) as { error: { message: string } }).error.message;
      expect(foreignMessage.replace(responseId, "ID")).toBe(unknownMessage.replace("resp_unknown", "ID"));
      expect(
        test.runner.requests.some((request) =>
          request.input.some((item) => JSON.stringify(item).includes("what was the secret")),
        ),
      ).toBe(false);
    },
  },
  {
    name: "bob writes into alice's session by naming it: he gets a session of his own, never her history",
    probe: async ({ test }) => {
      const response = await test.post(
        "/v1/responses",
        { input: "bob writes" },
        { ...BOB, "x-toolsift-session": SESSION },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("x-toolsift-session")).toBe(SESSION);
      const run = test.runner.requests.at(-1);
      expect(run).toMatchObject({ sessionKey: `bob.${SESSION}`, keyId: "bob" });
      const bobs = await test.sessions.read("main", `bob.${SESSION}`);
      expect(JSON.stringify(bobs)).not.toContain("alice secret 42");
      expect(bobs[0]).toMatchObject({ type: "session", keyId: "bob" });
      const alices = await test.sessions.read("main", `alice.${SESSION}`);
      expect(JSON.stringify(alices)).not.toContain("bob writes");
      // And bob reading his own "shared-name" sees his session only.
      const own = (await (await test.get(`/v1/sessions/${SESSION}`, BOB)).json()) as { events: unknown[] };
      expect(JSON.stringify(own.events)).not.toContain("alice secret 42");
    },
  },
  {
    name: "bob lists approvals: alice's is not there",
    probe: async ({ test }) => {
      expect(await (await test.get("/v1/approvals", BOB)).json()).toEqual({ approvals: [] });
    },
  },
  {
    name: "bob decides alice's approval: 404 as for an unknown id, and it stays pending",
    probe: async ({ test, approval }) => {
      const foreign = await test.post(`/v1/approvals/${approval.id}`, { decision: "allow" }, BOB);
      expect(foreign.status).toBe(404);
      expect(((await foreign.json()) as { error: { param: string } }).error.param).toBe("id");
      expect((await pending(test, "alice", 1)).map((one) => one.id)).toEqual([approval.id]);
    },
  },
  {
    name: "a key with only the approvals scope sees none of alice's approvals and cannot decide them",
    probe: async ({ test, approval }) => {
      const approver = authorizationOf("approver");
      expect(await (await test.get("/v1/approvals", approver)).json()).toEqual({ approvals: [] });
      expect((await test.post(`/v1/approvals/${approval.id}`, { decision: "allow" }, approver)).status).toBe(
        404,
      );
    },
  },
];

describe("isolation between keys: each of bob's probes of alice's state is refused", () => {
  it.each(ISOLATION_PROBES)("$name", async ({ probe }) => {
    const world = await aliceWorld();
    try {
      await probe(world);
    } finally {
      await world.release();
    }
    for (const token of ALL_TEST_TOKENS) expect(world.test.logs.join("\n")).not.toContain(token);
  });
});

describe("isolation between keys: what the owner and admin see", () => {
  it("alice sees her own names; her approval records her key; she decides it", async () => {
    const world = await aliceWorld();
    try {
      const { test, approval } = world;
      expect(approval).toMatchObject({ keyId: "alice", sessionKey: EXEC_SESSION, toolName: "exec" });
      const listed = (await (await test.get("/v1/sessions", ALICE)).json()) as {
        data: Array<{ sessionKey: string }>;
      };
      expect(listed.data.map((session) => session.sessionKey).sort()).toEqual([EXEC_SESSION, SESSION]);
      const read = (await (await test.get(`/v1/sessions/${SESSION}`, ALICE)).json()) as {
        events: Array<{ type: string; keyId?: string }>;
      };
      expect(read.events[0]).toMatchObject({ type: "session", keyId: "alice" });
      expect((await test.get(`/v1/responses/${world.responseId}`, ALICE)).status).toBe(200);
      const next = await test.post(
        "/v1/responses",
        { input: "again", previous_response_id: world.responseId },
        ALICE,
      );
      expect(next.status).toBe(200);
      expect(next.headers.get("x-toolsift-session")).toBe(SESSION);
      expect(test.runner.requests.at(-1)).toMatchObject({ sessionKey: `alice.${SESSION}` });
      expect((await test.post(`/v1/approvals/${approval.id}`, { decision: "allow" }, ALICE)).status).toBe(
        200,
      );
    } finally {
      await world.release();
    }
  });

  it("admin lists every session with its owner, reads and continues alice's, lists and decides her approval", async () => {
    const world = await aliceWorld();
    try {
      const { test, approval, responseId } = world;
      await test.post("/v1/responses", { input: "bob" }, { ...BOB, "x-toolsift-session": SESSION });
      await test.post("/v1/responses", { input: "ops" }, { ...OPS, "x-toolsift-session": "ops-own" });
      const listed = (await (await test.get("/v1/sessions", OPS)).json()) as {
        data: Array<{ sessionKey: string; owner: string | null }>;
      };
      const owners = Object.fromEntries(listed.data.map((session) => [session.sessionKey, session.owner]));
      expect(owners).toEqual({
        [`alice.${SESSION}`]: "alice",
        [`alice.${EXEC_SESSION}`]: "alice",
        [`bob.${SESSION}`]: "bob",
        "ops-own": null,
      });
      expect((await test.get(`/v1/sessions/alice.${SESSION}`, OPS)).status).toBe(200);
      expect((await test.get(`/v1/responses/${responseId}`, OPS)).status).toBe(200);
      const continued = await test.post(
        "/v1/responses",
        { input: "admin turn", previous_response_id: responseId },
        OPS,
      );
      expect(continued.status).toBe(200);
      expect(continued.headers.get("x-toolsift-session")).toBe(`alice.${SESSION}`);
      const approvals = await pending(test, "ops", 1);
      expect(approvals).toEqual([
        expect.objectContaining({ id: approval.id, keyId: "alice", sessionKey: `alice.${EXEC_SESSION}` }),
      ]);
      expect((await test.post(`/v1/approvals/${approval.id}`, { decision: "deny" }, OPS)).status).toBe(200);
    } finally {
      await world.release();
    }
  });

  it("a key narrowed to agent helper cannot continue a main-agent response it owns", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const narrowed = authorizationOf("helperOnly");
    const first = await test.post("/v1/responses", { input: "hi", model: "toolsift/helper" }, narrowed);
    expect(first.status).toBe(200);
    const models = (await (await test.get("/v1/models", narrowed)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(["toolsift/helper"]);
    const refused = await test.post(
      "/v1/responses",
      { input: "hi" },
      { ...narrowed, "x-toolsift-agent": "main" },
    );
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string; param: string } }).error).toMatchObject({
      code: "agent_not_allowed",
      param: "x-toolsift-agent",
    });
  });
});
