import { afterEach, describe, expect, it, vi } from "vitest";
import { type CatalogEntry, type ToolDefinition, toCatalogEntry } from "../../core/catalog/index.js";
import type { ApprovalDecision } from "../../core/execution/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createApprovalBroker } from "./create-approval-broker.js";
import { MAX_PENDING_APPROVALS } from "./limits.js";
import type { ApprovalBroker, ApprovalRecord, ApprovalRequestEvent } from "./types.js";

function entry(name: string, origin?: ToolDefinition["origin"]): CatalogEntry {
  const made = toCatalogEntry({
    name,
    description: `${name} tool`,
    parameters: { type: "object" },
    ...(origin === undefined ? {} : { origin }),
    execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
  });
  if (made === undefined) throw new Error(`no entry for ${name}`);
  return made;
}

const exec = entry("exec");
const read = entry("read");
const write = entry("write");
const weather = entry("weather_now", { kind: "plugin", owner: "weather" });
const calendar = entry("list_events", { kind: "mcp", owner: "calendar" });

function call(target: CatalogEntry, extra: Partial<ApprovalRequestEvent> = {}): ApprovalRequestEvent {
  return {
    entry: target,
    args: { command: "ls -la", password: "hunter2-secret" },
    surface: "direct",
    agentId: "main",
    sessionKey: "s-1",
    ...extra,
  };
}

/** Settles `promise` into a readable state without awaiting a decision that never comes. */
function track(promise: Promise<ApprovalDecision>): { decision: ApprovalDecision | undefined } {
  const state: { decision: ApprovalDecision | undefined } = { decision: undefined };
  void promise.then((decision) => {
    state.decision = decision;
  });
  return state;
}

async function waitForPending(broker: ApprovalBroker, count = 1): Promise<void> {
  for (let round = 0; round < 100 && (await broker.pending()).length < count; round += 1)
    await Promise.resolve();
  expect(await broker.pending()).toHaveLength(count);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createApprovalBroker: which calls need a decision", () => {
  it.each(["ask", "allow", "deny"] as const)(
    "approves a tool outside `require` at once in mode %s, publishing nothing",
    async (mode) => {
      const broker = createApprovalBroker({ mode });
      expect(await broker.requestApproval(call(read))).toEqual({ approved: true });
      expect(await broker.pending()).toEqual([]);
    },
  );

  it("requires exec by default, and only exec", async () => {
    const broker = createApprovalBroker({ mode: "deny" });
    expect(await broker.requestApproval(call(exec))).toEqual({
      approved: false,
      reason: "approval mode is deny",
    });
    for (const other of [read, write, weather, calendar]) {
      expect(await broker.requestApproval(call(other))).toEqual({ approved: true });
    }
  });

  it.each([
    { selector: "exec", needs: ["exec"] },
    { selector: "weather_*", needs: ["weather_now"] },
    { selector: "group:fs", needs: ["write", "read"] },
    { selector: "group:runtime", needs: ["exec"] },
    { selector: "plugin:weather", needs: ["weather_now"] },
    { selector: "mcp:calendar", needs: ["list_events"] },
    { selector: "group:mcp", needs: ["list_events"] },
    { selector: "group:plugins", needs: ["weather_now"] },
  ])("selector $selector requires exactly $needs", async ({ selector, needs }) => {
    const broker = createApprovalBroker({ mode: "deny", require: [selector] });
    const needing: string[] = [];
    for (const target of [exec, read, write, weather, calendar]) {
      const decision = await broker.requestApproval(call(target));
      if (!decision.approved) needing.push(target.name);
    }
    expect(needing.sort()).toEqual([...needs].sort());
  });

  it("requires nothing with an empty list", async () => {
    const broker = createApprovalBroker({ mode: "deny", require: [] });
    expect(await broker.requestApproval(call(exec))).toEqual({ approved: true });
  });
});

describe("createApprovalBroker: modes", () => {
  it("allow approves a required tool without waiting", async () => {
    const broker = createApprovalBroker({ mode: "allow" });
    expect(await broker.requestApproval(call(exec))).toEqual({ approved: true });
    expect(await broker.pending()).toEqual([]);
  });

  it("deny refuses a required tool without waiting", async () => {
    const broker = createApprovalBroker({ mode: "deny" });
    expect(await broker.requestApproval(call(exec))).toEqual({
      approved: false,
      reason: "approval mode is deny",
    });
    expect(await broker.pending()).toEqual([]);
  });

  it("ask (the default) publishes a pending request with redacted arguments", async () => {
    const broker = createApprovalBroker({ timeoutMs: 5_000 });
    const state = track(broker.requestApproval(call(exec, { agentId: "helper", sessionKey: "s-9" })));
    await waitForPending(broker);
    const [request] = await broker.pending();
    expect(request).toMatchObject({
      toolId: exec.id,
      toolName: "exec",
      agentId: "helper",
      sessionKey: "s-9",
      args: { command: "ls -la" },
    });
    expect(request?.id).toMatch(/^appr_[0-9a-f]{24}$/u);
    expect(JSON.stringify(request)).not.toContain("hunter2-secret");
    expect(Date.parse(request?.expiresAt ?? "") - Date.parse(request?.createdAt ?? "")).toBe(5_000);
    expect(state.decision).toBeUndefined();
    broker.close();
  });

  it("hands out copies: changing the list does not change the broker", async () => {
    const broker = createApprovalBroker();
    track(broker.requestApproval(call(exec)));
    await waitForPending(broker);
    const list = await broker.pending();
    list.pop();
    expect(await broker.pending()).toHaveLength(1);
    broker.close();
  });
});

describe("createApprovalBroker: decisions", () => {
  it("allow approves the waiting call and removes it from the list", async () => {
    const broker = createApprovalBroker();
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    expect(await broker.decide(id, "allow", "looks fine")).toBe(true);
    expect(await decision).toEqual({ approved: true });
    expect(await broker.pending()).toEqual([]);
  });

  it("deny blocks the waiting call with the operator's note", async () => {
    const broker = createApprovalBroker();
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    expect(await broker.decide(id, "deny", "  not on prod  ")).toBe(true);
    expect(await decision).toEqual({ approved: false, reason: "denied by the operator: not on prod" });
  });

  it("tells the waiting run who settled its request, when, and the note (onSettled)", async () => {
    const broker = createApprovalBroker();
    const records: ApprovalRecord[] = [];
    const decision = broker.requestApproval(call(exec, { onSettled: (record) => records.push(record) }));
    await waitForPending(broker);
    const pending = (await broker.pending())[0];
    expect(await broker.decide(pending?.id ?? "", "allow", " ok for staging ", "alice")).toBe(true);
    expect(await decision).toEqual({ approved: true });
    expect(records).toEqual([
      {
        id: pending?.id,
        toolId: exec.id,
        toolName: "exec",
        verdict: "allow",
        outcome: "allowed by the operator: ok for staging",
        decidedBy: "alice",
        note: "ok for staging",
        requestedAt: pending?.createdAt,
        decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/u),
      },
    ]);
  });

  it("a timeout is recorded with no key; a throwing onSettled changes nothing", async () => {
    vi.useFakeTimers();
    const broker = createApprovalBroker({ timeoutMs: 1000 });
    const records: ApprovalRecord[] = [];
    const decision = broker.requestApproval(call(exec, { onSettled: (record) => records.push(record) }));
    const throwing = broker.requestApproval(
      call(exec, {
        onSettled: () => {
          throw new Error("listener failed");
        },
      }),
    );
    await vi.advanceTimersByTimeAsync(1500);
    expect(await decision).toEqual({ approved: false, reason: "no approval decision within 1000 ms" });
    expect(await throwing).toEqual({ approved: false, reason: "no approval decision within 1000 ms" });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ verdict: "deny", outcome: "timed out" });
    expect(records[0]).not.toHaveProperty("decidedBy");
  });

  it("onChange: told when a request is published and when it is settled", async () => {
    const broker = createApprovalBroker();
    let changes = 0;
    const stop = broker.onChange(() => {
      changes += 1;
    });
    broker.onChange(() => {
      throw new Error("a failing listener");
    });
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    expect(changes).toBe(1);
    await broker.decide((await broker.pending())[0]?.id ?? "", "allow");
    expect(await decision).toEqual({ approved: true });
    expect(changes).toBe(2);
    stop();
    const next = broker.requestApproval(call(exec));
    await waitForPending(broker);
    expect(changes).toBe(2);
    broker.close();
    await next;
  });

  it("calls decided at once (outside `require`, or by the mode) are not recorded", async () => {
    const records: ApprovalRecord[] = [];
    const onSettled = (record: ApprovalRecord) => records.push(record);
    await createApprovalBroker().requestApproval(call(read, { onSettled }));
    await createApprovalBroker({ mode: "deny" }).requestApproval(call(exec, { onSettled }));
    expect(records).toEqual([]);
  });

  it("deny without a note says who denied", async () => {
    const broker = createApprovalBroker();
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    await broker.decide((await broker.pending())[0]?.id ?? "", "deny");
    expect(await decision).toEqual({ approved: false, reason: "denied by the operator" });
  });

  it("answers false for a second decision and for unknown ids, changing nothing", async () => {
    const broker = createApprovalBroker();
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    expect(await broker.decide("appr_000000000000000000000000", "allow")).toBe(false);
    expect(await broker.pending()).toHaveLength(1);
    expect(await broker.decide(id, "deny")).toBe(true);
    expect(await broker.decide(id, "allow")).toBe(false);
    expect(await decision).toEqual({ approved: false, reason: "denied by the operator" });
  });

  it("decides each request on its own", async () => {
    const broker = createApprovalBroker();
    const first = broker.requestApproval(call(exec, { sessionKey: "a" }));
    const second = broker.requestApproval(call(exec, { sessionKey: "b" }));
    await waitForPending(broker, 2);
    const [a, b] = await broker.pending();
    expect(a?.sessionKey).toBe("a");
    expect(a?.id).not.toBe(b?.id);
    await broker.decide(b?.id ?? "", "allow");
    expect(await second).toEqual({ approved: true });
    expect((await broker.pending()).map((request) => request.sessionKey)).toEqual(["a"]);
    await broker.decide(a?.id ?? "", "deny");
    expect(await first).toMatchObject({ approved: false });
  });

  it("refuses a decision other than allow or deny", async () => {
    const broker = createApprovalBroker();
    track(broker.requestApproval(call(exec)));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    await expect(broker.decide(id, "yes" as "allow")).rejects.toThrow(/"allow" or "deny"/u);
    expect(await broker.pending()).toHaveLength(1);
    broker.close();
  });
});

describe("createApprovalBroker: no decision", () => {
  it("denies after timeoutMs and removes the request", async () => {
    vi.useFakeTimers();
    const broker = createApprovalBroker({ timeoutMs: 60_000 });
    const state = track(broker.requestApproval(call(exec)));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    await vi.advanceTimersByTimeAsync(59_999);
    expect(state.decision).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(state.decision).toEqual({ approved: false, reason: "no approval decision within 60000 ms" });
    expect(await broker.pending()).toEqual([]);
    expect(await broker.decide(id, "allow")).toBe(false);
  });

  it("uses 60 s by default", async () => {
    vi.useFakeTimers();
    const broker = createApprovalBroker();
    const state = track(broker.requestApproval(call(exec)));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.decision).toEqual({ approved: false, reason: "no approval decision within 60000 ms" });
  });

  it("the caller's abort cancels the wait: denied, and the request leaves the list", async () => {
    const broker = createApprovalBroker();
    const controller = new AbortController();
    const decision = broker.requestApproval(call(exec, { signal: controller.signal }));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    controller.abort();
    expect(await decision).toEqual({
      approved: false,
      reason: "the call was cancelled while waiting for approval",
    });
    expect(await broker.pending()).toEqual([]);
    expect(await broker.decide(id, "allow")).toBe(false);
  });

  it("an already aborted call is denied without being published", async () => {
    const log: string[] = [];
    const broker = createApprovalBroker({ log: (line) => log.push(line) });
    const decision = await broker.requestApproval(call(exec, { signal: AbortSignal.abort() }));
    expect(decision).toEqual({
      approved: false,
      reason: "the call was cancelled while waiting for approval",
    });
    expect(log).toEqual([]);
    expect(await broker.pending()).toEqual([]);
  });

  it("close() denies every pending request and every later one that would wait", async () => {
    const broker = createApprovalBroker({ require: ["exec", "write"] });
    const first = broker.requestApproval(call(exec));
    const second = broker.requestApproval(call(write));
    await waitForPending(broker, 2);
    broker.close();
    const closed = { approved: false, reason: "approvals are closed: the gateway is stopping" };
    expect(await first).toEqual(closed);
    expect(await second).toEqual(closed);
    expect(await broker.pending()).toEqual([]);
    expect(await broker.requestApproval(call(exec))).toEqual(closed);
    expect(await broker.requestApproval(call(read))).toEqual({ approved: true });
    broker.close();
  });

  it(`denies at once past ${MAX_PENDING_APPROVALS} pending requests`, async () => {
    const broker = createApprovalBroker();
    for (let index = 0; index < MAX_PENDING_APPROVALS; index += 1) track(broker.requestApproval(call(exec)));
    await waitForPending(broker, MAX_PENDING_APPROVALS);
    expect(await broker.requestApproval(call(exec))).toMatchObject({
      approved: false,
      reason: expect.stringContaining("too many calls are waiting for approval"),
    });
    broker.close();
  });
});

describe("createApprovalBroker: log and options", () => {
  it("logs each request and outcome without the arguments", async () => {
    const lines: string[] = [];
    const broker = createApprovalBroker({ log: (line) => lines.push(line) });
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    const id = (await broker.pending())[0]?.id ?? "";
    await broker.decide(id, "allow");
    await decision;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`approval ${id} pending: exec`);
    expect(lines[1]).toContain(`approval ${id} allowed by the operator`);
    expect(lines.join("\n")).not.toMatch(/hunter2|ls -la/u);
  });

  it("a throwing log does not change the decision", async () => {
    const broker = createApprovalBroker({
      log: () => {
        throw new Error("log broke");
      },
    });
    const decision = broker.requestApproval(call(exec));
    await waitForPending(broker);
    await broker.decide((await broker.pending())[0]?.id ?? "", "allow");
    expect(await decision).toEqual({ approved: true });
  });

  it.each([
    { options: { mode: "maybe" }, key: "tools.approval.mode" },
    { options: { timeoutMs: 0 }, key: "tools.approval.timeoutMs" },
    { options: { timeoutMs: 1.5 }, key: "tools.approval.timeoutMs" },
    { options: { timeoutMs: 2 ** 31 }, key: "tools.approval.timeoutMs" },
    { options: { require: "exec" }, key: "tools.approval.require" },
    { options: { require: [3] }, key: "tools.approval.require" },
    { options: { require: ["exec", "group:shell"] }, key: "tools.approval.require[1]" },
    { options: { require: [""] }, key: "tools.approval.require[0]" },
    { options: { require: ["bogus:x:y:z"] }, key: "tools.approval.require[0]" },
  ])("refuses bad options $options naming $key", ({ options, key }) => {
    let thrown: unknown;
    try {
      createApprovalBroker(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toContain(key);
  });
});
