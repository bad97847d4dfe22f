import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY } from "../../src/dev/qa/start-gateway-process.js";
import { decide, FLEET_TOKENS, type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// An approval asked for by a run on one gateway, listed and decided through another; a gateway killed with
// SIGKILL while its run holds a session. Real gateway processes on one real PostgreSQL database.

let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ gateways: 2 });
}, 60_000);

afterAll(async () => {
  await fleet?.close();
});

type Listed = Array<{ id: string; toolName: string; sessionKey: string; keyId?: string }>;

describe("approvals across a fleet", () => {
  it("a `toolsift mcp serve` call waiting for approval is listed and allowed through a gateway; the MCP call finishes", async () => {
    const [a] = fleet.gateways;
    if (!a) throw new Error("a gateway expected");
    const runs = fleet.markerRuns();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_ENTRY, "mcp", "serve"],
      env: fleet.env("mcp") as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "fleet-approval-probe", version: "1.0.0" });
    await client.connect(transport);
    try {
      // The fleet's config declares its tools directly, and touch_marker needs an operator's approval.
      const called = client.callTool({ name: "touch_marker", arguments: {} });
      let listed: Listed = [];
      await expect
        .poll(
          async () => {
            listed = (await read(a, "ops", "/v1/approvals")).body.approvals as Listed;
            return listed.length;
          },
          { timeout: 20_000 },
        )
        .toBe(1);
      expect(listed[0]?.toolName).toBe("touch_marker");
      // The MCP server's run belongs to no key: another key does not see it; the admin decides it.
      expect((await read(a, "alice", "/v1/approvals")).body.approvals).toEqual([]);
      const id = listed[0]?.id ?? "";
      expect((await decide(a.url, FLEET_TOKENS.ALICE_TOKEN, id, "allow")).status).toBe(404);
      expect((await decide(a.url, FLEET_TOKENS.OPS_TOKEN, id, "allow")).status).toBe(200);
      const result = await called;
      expect(JSON.stringify(result.content)).toContain("marked");
      expect(fleet.markerRuns()).toBe(runs + 1);
    } finally {
      await client.close();
    }
  });

  it("an approval asked on gateway A is listed and allowed through gateway B, and the run on A goes on", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("two gateways expected");
    const runs = fleet.markerRuns();
    const running = respond(a, "alice", { input: "target=touch_marker" }, "approve-me");
    let listed: Listed = [];
    await expect
      .poll(
        async () => {
          listed = (await read(b, "alice", "/v1/approvals")).body.approvals as Listed;
          return listed.length;
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    expect(listed[0]).toMatchObject({ toolName: "touch_marker", sessionKey: "approve-me" });
    const id = listed[0]?.id ?? "";
    // Another key neither sees nor decides it, on either gateway; an admin sees it with its key.
    expect((await read(b, "bob", "/v1/approvals")).body.approvals).toEqual([]);
    expect((await decide(a.url, FLEET_TOKENS.BOB_TOKEN, id, "allow")).status).toBe(404);
    const admin = (await read(a, "ops", "/v1/approvals")).body.approvals as Listed;
    expect(admin).toContainEqual(
      expect.objectContaining({ id, keyId: "alice", sessionKey: "alice.approve-me" }),
    );
    expect(fleet.markerRuns()).toBe(runs);
    const decided = await decide(b.url, FLEET_TOKENS.ALICE_TOKEN, id, "allow");
    expect(decided).toEqual({ status: 200, body: { id, decision: "allow" } });
    const finished = await running;
    expect(finished.status).toBe(200);
    expect(String(finished.body.output_text)).toContain("marked");
    expect(fleet.markerRuns()).toBe(runs + 1);
    // Decided once: a second decision through A is refused as unknown.
    expect((await decide(a.url, FLEET_TOKENS.ALICE_TOKEN, id, "deny")).status).toBe(404);
  });

  it("a denial made through B reaches the run on A as a blocked call; nothing runs", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("two gateways expected");
    const runs = fleet.markerRuns();
    const running = respond(a, "bob", { input: "target=touch_marker" }, "deny-me");
    let listed: Listed = [];
    await expect
      .poll(
        async () => {
          listed = (await read(b, "bob", "/v1/approvals")).body.approvals as Listed;
          return listed.length;
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    expect((await decide(b.url, FLEET_TOKENS.OPS_TOKEN, listed[0]?.id ?? "", "deny")).status).toBe(200);
    const finished = await running;
    expect(finished.status).toBe(200);
    expect(fleet.markerRuns()).toBe(runs);
  });

  it("a gateway killed with SIGKILL mid-run loses nothing it acknowledged; its session continues on another", async () => {
    const victim = await fleet.startGateway();
    const survivor = fleet.gateways[0];
    if (!survivor) throw new Error("a gateway expected");
    const first = await respond(victim, "alice", { input: "the harbour code is 4711" }, "crash");
    expect(first.status).toBe(200);
    // The next run on the victim holds the session while it waits for an approval.
    const doomed = respond(victim, "alice", { input: "target=touch_marker" }, "crash").catch(
      (error: unknown) => error,
    );
    await expect
      .poll(async () => ((await read(survivor, "alice", "/v1/approvals")).body.approvals as Listed).length, {
        timeout: 10_000,
      })
      .toBe(1);
    await victim.kill();
    expect(await doomed).toBeInstanceOf(Error);
    // The dead gateway's request leaves the list; its claim on the session frees within seconds.
    await expect
      .poll(async () => ((await read(survivor, "alice", "/v1/approvals")).body.approvals as Listed).length, {
        timeout: 15_000,
      })
      .toBe(0);
    const before = fleet.mock.requests().length;
    const next = await respond(survivor, "alice", { input: "what is the harbour code?" }, "crash");
    expect(next.status).toBe(200);
    expect(
      fleet.mock
        .requests()
        .slice(before)
        .some((request) => JSON.stringify(request.body).includes("4711")),
    ).toBe(true);
    const session = await read(survivor, "alice", "/v1/sessions/crash");
    const summaries = (session.body.events as Array<{ type: string; status?: string }>).filter(
      (event) => event.type === "run-summary",
    );
    // The first run and the one after the crash completed; the killed run never wrote a summary.
    expect(summaries.map((summary) => summary.status)).toEqual(["completed", "completed"]);
  });
});
