import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import OpenAI, { NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY } from "../../src/dev/qa/start-gateway-process.js";
import { decide, FLEET_TOKENS, type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// Three real gateway processes on one PostgreSQL database, no affinity: every request below goes to a
// gateway chosen on purpose, never the one that served the turn before.

const run = promisify(execFile);
let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ gateways: 3, gateway: { maxQueuedPerSession: 1 } });
}, 60_000);

afterAll(async () => {
  await fleet?.close();
});

function client(index: number, key: "alice" | "bob" | "ops"): OpenAI {
  const token = { alice: FLEET_TOKENS.ALICE_TOKEN, bob: FLEET_TOKENS.BOB_TOKEN, ops: FLEET_TOKENS.OPS_TOKEN }[
    key
  ];
  const gateway = fleet.gateways[index];
  if (gateway === undefined) throw new Error(`no gateway ${index}`);
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: token, maxRetries: 0 });
}

/** Whether some request the mock received after `from` carried `text` (the model saw it). */
function modelSaw(text: string, from: number): boolean {
  return fleet.mock
    .requests()
    .slice(from)
    .some((request) => JSON.stringify(request.body).includes(text));
}

describe("a fleet of three gateways on one database", () => {
  it("continues a session on another gateway: the model sees the earlier turns", async () => {
    const [a, b, c] = fleet.gateways;
    if (!a || !b || !c) throw new Error("three gateways expected");
    const first = await respond(a, "alice", { input: "remember the word heliotrope" }, "trip");
    expect(first.status).toBe(200);
    const before = fleet.mock.requests().length;
    const second = await respond(b, "alice", { input: "which word did I ask you to remember?" }, "trip");
    expect(second.status).toBe(200);
    expect(modelSaw("heliotrope", before)).toBe(true);
    // The session, read through the third gateway, holds both turns in order.
    const session = await read(c, "alice", "/v1/sessions/trip");
    expect(session.status).toBe(200);
    const inputs = (session.body.events as Array<{ type: string; items?: unknown }>)
      .filter((event) => event.type === "user-input")
      .map((event) => JSON.stringify(event.items));
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toContain("heliotrope");
    expect(inputs[1]).toContain("which word");
  });

  it("reads and continues a stored response through any gateway, with the official client", async () => {
    const created = await client(0, "alice").responses.create({
      model: "toolsift",
      input: "note the code ZX-81",
    });
    const fetched = await client(1, "alice").responses.retrieve(created.id);
    expect(fetched.id).toBe(created.id);
    expect(fetched.output_text).toBe(created.output_text);
    const before = fleet.mock.requests().length;
    const next = await client(2, "alice").responses.create({
      model: "toolsift",
      input: "what was the code?",
      previous_response_id: created.id,
    });
    expect(next.status).toBe("completed");
    expect(modelSaw("ZX-81", before)).toBe(true);
  });

  it("keeps a key's sessions and stored responses its own on every gateway; admin sees all", async () => {
    const created = await client(0, "alice").responses.create({
      model: "toolsift",
      input: "alice's secret plan",
    });
    await expect(client(1, "bob").responses.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      client(2, "bob").responses.create({
        model: "toolsift",
        input: "continue",
        previous_response_id: created.id,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const [a, b, c] = fleet.gateways;
    if (!a || !b || !c) throw new Error("three gateways expected");
    await respond(a, "alice", { input: "only alice" }, "private");
    expect((await read(b, "bob", "/v1/sessions/private")).status).toBe(404);
    const bobs = await read(c, "bob", "/v1/sessions?limit=100");
    expect(JSON.stringify(bobs.body)).not.toContain("private");
    const all = await read(c, "ops", "/v1/sessions?limit=100");
    const listed = all.body.data as Array<{ sessionKey: string; owner: string | null }>;
    expect(listed).toContainEqual(expect.objectContaining({ sessionKey: "alice.private", owner: "alice" }));
    expect((await client(2, "ops").responses.retrieve(created.id)).id).toBe(created.id);
  });

  it("serialises two runs of one session sent to two gateways at once, while other sessions overlap", async () => {
    const [a, b, c] = fleet.gateways;
    if (!a || !b || !c) throw new Error("three gateways expected");
    const already = fleet.steps().length;
    const results = await Promise.all([
      respond(a, "alice", { input: "target=slow_step" }, "serial"),
      respond(b, "alice", { input: "target=slow_step again" }, "serial"),
      respond(c, "bob", { input: "target=slow_step" }, "elsewhere"),
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    const steps = fleet.steps().slice(already);
    expect(steps).toHaveLength(3);
    const pids = new Set(steps.map((step) => step.pid));
    expect(pids.size).toBeGreaterThanOrEqual(2);
    // The two runs of "serial" ran in two processes, one after the other; "elsewhere" overlapped one of them.
    const byStart = [...steps].sort((x, y) => x.start - y.start);
    const overlaps = (x: { start: number; end: number }, y: { start: number; end: number }) =>
      x.start < y.end && y.start < x.end;
    const overlapping = byStart.flatMap((x, i) =>
      byStart
        .slice(i + 1)
        .filter((y) => overlaps(x, y))
        .map((y) => [x, y]),
    );
    expect(overlapping.length).toBeLessThanOrEqual(2);
    expect(overlapping.length).toBeGreaterThanOrEqual(1);
  });

  it("enforces gateway.maxQueuedPerSession across the fleet: one running, one waiting, the next is 429", async () => {
    const [a, b, c] = fleet.gateways;
    if (!a || !b || !c) throw new Error("three gateways expected");
    // touch_marker waits for an approval: the run holds its session until it is decided.
    const holding = respond(a, "alice", { input: "target=touch_marker" }, "busy");
    await expect
      .poll(async () => (await read(b, "alice", "/v1/approvals")).body.approvals, { timeout: 10_000 })
      .toHaveLength(1);
    const waiting = respond(b, "alice", { input: "second in line" }, "busy");
    // Give the waiting run time to take its place in the database's queue.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = await respond(c, "alice", { input: "third" }, "busy");
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe("session_busy");
    const pending = (await read(c, "alice", "/v1/approvals")).body.approvals as Array<{ id: string }>;
    const decided = await decide(c.url, FLEET_TOKENS.ALICE_TOKEN, pending[0]?.id ?? "", "deny", "not now");
    expect(decided.status).toBe(200);
    expect((await holding).status).toBe(200);
    expect((await waiting).status).toBe(200);
  });

  it("`toolsift tools` and `toolsift search` keep no state: they finish without touching the database", async () => {
    // A URL at a port nothing listens on: a command that opened the state would fail or hang.
    const env = { ...fleet.env("cli"), TOOLSIFT_STATE_URL: "postgresql://nobody@127.0.0.1:9/none" };
    const tools = await run(process.execPath, [CLI_ENTRY, "tools"], { env, timeout: 20_000 });
    expect(tools.stdout).toContain("touch_marker");
    const search = await run(process.execPath, [CLI_ENTRY, "search", "marker file"], {
      env,
      timeout: 20_000,
    });
    expect(search.stdout).toContain("touch_marker");
  });

  it("`toolsift mcp serve` on the fleet's config logs its calls to the same database", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_ENTRY, "mcp", "serve"],
      env: fleet.env("mcp") as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "fleet-probe", version: "1.0.0" });
    await client.connect(transport);
    try {
      // The fleet's config declares its tools directly (toolSearch: false).
      const called = await client.callTool({ name: "slow_step", arguments: {} });
      expect(JSON.stringify(called.content)).toContain("stepped");
    } finally {
      await client.close();
    }
    const c = fleet.gateways[2];
    if (!c) throw new Error("three gateways expected");
    const listed = (await read(c, "ops", "/v1/sessions?agent=mcp&limit=100")).body.data as Array<{
      agentId: string;
    }>;
    expect(listed.length).toBeGreaterThanOrEqual(1);
    expect(listed.every((session) => session.agentId === "mcp")).toBe(true);
  });

  it("`toolsift sessions` and `sessions show` read the fleet's database", async () => {
    const env = fleet.env("cli");
    const listed = await run(process.execPath, [CLI_ENTRY, "sessions", "--json", "--limit", "100"], { env });
    const sessions = JSON.parse(listed.stdout) as Array<{ id: string }>;
    expect(sessions.map((session) => session.id)).toContain("main/alice.trip");
    const shown = await run(process.execPath, [CLI_ENTRY, "sessions", "show", "main/alice.trip"], { env });
    expect(shown.stdout).toContain("alice.trip");
  });
});
