import { describe, expect, it } from "vitest";
import { CellChild, type CellRun } from "./cell-child.js";
import { childNodeFlags } from "./child-launch.js";
import { processExists } from "./code-mode.test-support.js";
import { MAX_CHILD_MESSAGE_CHARS, MIN_CELL_TIMEOUT_MS, MIN_LOG_BYTES } from "./limits.js";
import { resolveCodeModeLimits } from "./resolve-code-mode-limits.js";

/**
 * A rogue child: the same node flags as a real one, but a program of the test's choosing that speaks the
 * protocol badly. `onRun` is the body run when the parent's run message arrives (`message` in scope).
 */
async function rogueChild(program: {
  beforeReady?: string;
  onRun?: string;
  ready?: boolean;
}): Promise<CellChild> {
  const flags = await childNodeFlags(resolveCodeModeLimits({}));
  const source = `
    const send = (message) => process.send(message);
    ${program.beforeReady ?? ""}
    process.on("message", (raw) => {
      const message = JSON.parse(raw);
      if (message.type === "run") { ${program.onRun ?? ""} }
    });
    ${program.ready === false ? "" : 'send(JSON.stringify({ type: "ready" }));'}
  `;
  const child = new CellChild({
    command: process.execPath,
    args: [...flags, "--input-type=module", "-e", source],
  });
  child.claim();
  return child;
}

function runRequest(calls: unknown[][]): CellRun {
  return {
    source: "return 1;",
    timeoutMs: MIN_CELL_TIMEOUT_MS,
    maxBridgeCalls: 5,
    maxLogBytes: MIN_LOG_BYTES,
    bridge: async (method, args) => {
      calls.push([method, ...args]);
      return { ok: true, value: JSON.stringify({ answered: method }) };
    },
  };
}

const violations: Array<[string, string, RegExp]> = [
  ["a message that is not JSON", 'send("this is not json");', /not valid JSON/u],
  [
    "a message that is an object, not a JSON string",
    'send({ type: "done", ok: true, value: "1" });',
    /not a JSON string/u,
  ],
  [
    "a call naming an unknown method",
    'send(JSON.stringify({ type: "call", id: 1, method: "spawn", args: "[\\"rm -rf /\\"]" }));',
    /unknown shape or method/u,
  ],
  [
    "an unknown message type",
    'send(JSON.stringify({ type: "exec", command: "id" }));',
    /unknown shape or method/u,
  ],
  [
    "a known message with an extra field",
    'send(JSON.stringify({ type: "done", ok: true, value: "1", proto: "x" }));',
    /unknown shape or method/u,
  ],
  [
    "bridge arguments that are not an array",
    'send(JSON.stringify({ type: "call", id: 1, method: "search", args: "{\\"query\\":1}" }));',
    /not a JSON array/u,
  ],
  [
    "a value that is not JSON",
    'send(JSON.stringify({ type: "done", ok: true, value: "{nope" }));',
    /value that is not JSON/u,
  ],
  [
    "an error code that is not a code",
    'send(JSON.stringify({ type: "done", ok: false, error: { code: "<script>", message: "x" } }));',
    /unknown shape or method/u,
  ],
  ["a second ready message", 'send(JSON.stringify({ type: "ready" }));', /a second ready message/u],
  [
    "an oversized message",
    `send(JSON.stringify("x".repeat(${MAX_CHILD_MESSAGE_CHARS})));`,
    /oversized message/u,
  ],
];

describe("CellChild: a child that breaks the protocol fails its cell, never the parent", () => {
  it.each(violations)("%s", async (_name, onRun, reason) => {
    const calls: unknown[][] = [];
    const child = await rogueChild({ onRun });
    await child.ready;
    const outcome = await child.run(runRequest(calls));
    expect(outcome.status).toBe("failed");
    if (outcome.status === "failed") {
      expect(outcome.error.code).toBe("SANDBOX_FAILURE");
      expect(outcome.error.message).toMatch(reason);
    }
    expect(calls).toEqual([]);
    await child.exited;
    expect(processExists(child.pid)).toBe(false);
  });

  it("kills a child that never answers at the timeout plus the grace period (the parent's backstop)", async () => {
    const child = await rogueChild({ onRun: "/* say nothing */" });
    await child.ready;
    const outcome = await child.run(runRequest([]));
    expect(outcome).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
    await child.exited;
    expect(processExists(child.pid)).toBe(false);
  });

  it("fails the cell when the child exits mid-run", async () => {
    const child = await rogueChild({ onRun: "process.exit(3);" });
    await child.ready;
    const outcome = await child.run(runRequest([]));
    expect(outcome).toMatchObject({ status: "failed", error: { code: "SANDBOX_FAILURE" } });
    if (outcome.status === "failed") expect(outcome.error.message).toContain("code 3");
  });

  it("rejects ready with the reason when the child dies before it is ready", async () => {
    const child = await rogueChild({ beforeReady: "process.exit(2);", ready: false });
    await expect(child.ready).rejects.toThrow(/could not start: it exited \(code 2\)/u);
  });

  it("rejects ready when the child talks before it is ready", async () => {
    const child = await rogueChild({ beforeReady: 'send("garbage");', ready: false });
    await expect(child.ready).rejects.toThrow(
      /broke the bridge protocol \(a message that is not valid JSON\)/u,
    );
    await child.exited;
    expect(processExists(child.pid)).toBe(false);
  });

  it("answers bridge calls with JSON strings only, and settles with the child's value", async () => {
    const calls: unknown[][] = [];
    const child = await rogueChild({
      onRun: `
        send(JSON.stringify({ type: "call", id: 7, method: "describe", args: JSON.stringify(["weather"]) }));
        process.on("message", (reply) => {
          send(JSON.stringify({ type: "log", level: "info", text: typeof reply }));
          send(JSON.stringify({ type: "done", ok: true, value: JSON.stringify({ reply: JSON.parse(reply) }) }));
        });
      `,
    });
    await child.ready;
    const outcome = await child.run(runRequest(calls));
    expect(calls).toEqual([["describe", "weather"]]);
    expect(outcome).toEqual({
      status: "completed",
      value: { reply: { type: "reply", id: 7, ok: true, value: JSON.stringify({ answered: "describe" }) } },
      logs: ["string"],
    });
  });

  it("fails the cell past the bridge call cap even when the child does not count", async () => {
    const calls: unknown[][] = [];
    const child = await rogueChild({
      onRun: `for (let id = 1; id <= 50; id++) send(JSON.stringify({ type: "call", id, method: "search", args: JSON.stringify(["x"]) }));`,
    });
    await child.ready;
    const outcome = await child.run(runRequest(calls));
    expect(outcome).toMatchObject({ status: "failed", error: { code: "BRIDGE_CALL_LIMIT" } });
    expect(calls.length).toBeLessThanOrEqual(5);
  });

  it("bounds logs in the parent even when the child does not", async () => {
    const child = await rogueChild({
      onRun: `
        for (let i = 0; i < 100; i++) send(JSON.stringify({ type: "log", level: "log", text: "z".repeat(100) }));
        send(JSON.stringify({ type: "done", ok: true, value: "1" }));
      `,
    });
    await child.ready;
    const outcome = await child.run(runRequest([]));
    expect(outcome.status).toBe("completed");
    if (outcome.status === "completed") {
      const kept = outcome.logs.slice(0, -1);
      expect(kept.reduce((total, line) => total + Buffer.byteLength(line) + 1, 0)).toBeLessThanOrEqual(
        MIN_LOG_BYTES,
      );
      expect(outcome.logs.at(-1)).toMatch(/^\[logs truncated/u);
    }
  });
});
