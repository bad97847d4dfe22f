import { afterAll, describe, expect, it } from "vitest";
import { codeModeToolSearch, completedValue, errorOf, weatherTool } from "./code-mode.test-support.js";
import { createCodeMode } from "./create-code-mode.js";
import { DEFAULT_MAX_BRIDGE_CALLS, MIN_CELL_TIMEOUT_MS, MIN_MEMORY_LIMIT_BYTES } from "./limits.js";
import { logsTruncatedLine } from "./log-buffer.js";

const toolSearch = codeModeToolSearch([weatherTool().tool]);
const maxLogBytes = 4096;
const codeMode = createCodeMode({ toolSearch, poolSize: 2, timeoutMs: MIN_CELL_TIMEOUT_MS, maxLogBytes });
const smallMemory = createCodeMode({ toolSearch, memoryLimitBytes: MIN_MEMORY_LIMIT_BYTES });
afterAll(async () => {
  await codeMode.close();
  await smallMemory.close();
});

const HEALTHY = "return (await tools.search('forecast')).length;";

describe("Code Mode limits: the wall clock", () => {
  it.each([
    ["an infinite synchronous loop", "while (true) {}"],
    ["an infinite async loop", "while (true) await null;"],
    ["a promise that never settles", "await new Promise(() => {});"],
    ["a loop that catches the interruption", "for (;;) { try { while (true) {} } catch (error) {} }"],
    [
      "an endless chain of promise jobs",
      "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
    ],
  ])("stops %s at the timeout while a parallel healthy cell completes", async (_name, source) => {
    const [stuck, healthy] = await Promise.all([codeMode.exec(source), codeMode.exec(HEALTHY)]);
    expect(errorOf(stuck)).toEqual({
      code: "TIMEOUT",
      message: `The cell ran longer than its limit of ${MIN_CELL_TIMEOUT_MS} ms and was stopped; do less per cell, or start long work with a smaller yieldMs and use wait.`,
    });
    expect(completedValue(healthy)).toBe(1);
    expect(completedValue(await codeMode.exec(HEALTHY))).toBe(1);
  });
});

describe("Code Mode limits: memory and stack", () => {
  it.each([
    [
      "a heap bomb of objects",
      "const hoard = []; for (;;) hoard.push({ n: hoard.length, text: 'x'.repeat(200) + hoard.length, list: [1, 2, 3, 4, 5, 6, 7, 8] });",
    ],
    ["a heap bomb of strings", "const hoard = []; for (;;) hoard.push('x'.repeat(10000) + hoard.length);"],
    ["a heap bomb of arrays", "const hoard = []; for (;;) hoard.push(new Array(10000).fill(hoard.length));"],
    ["one huge ArrayBuffer", "new ArrayBuffer(512 * 2 ** 20);"],
    ["many typed arrays", "const hoard = []; for (;;) hoard.push(new Uint8Array(2 ** 20));"],
  ])("fails %s with MEMORY_LIMIT and the host lives on", async (_name, source) => {
    const outcome = await smallMemory.exec(source);
    expect(errorOf(outcome).code).toBe("MEMORY_LIMIT");
    expect(completedValue(await smallMemory.exec(HEALTHY))).toBe(1);
  });

  it.each([
    ["unbounded recursion", "const down = () => down(); down();"],
    [
      "a deeply nested value handed to JSON.stringify",
      "let node = {}; const root = node; for (let i = 0; i < 100000; i++) { node.next = {}; node = node.next; } return JSON.stringify(root).length;",
    ],
  ])("fails %s as a stack overflow, never the child's crash", async (_name, source) => {
    const error = errorOf(await smallMemory.exec(source));
    expect(error.code).toBe("CELL_ERROR");
    expect(error.message).toMatch(/stack overflow/u);
  });

  it("clamps a memory limit below the minimum to it", async () => {
    const small = createCodeMode({ toolSearch, memoryLimitBytes: 1 });
    try {
      const half = MIN_MEMORY_LIMIT_BYTES / 2;
      const below = `const hoard = []; let bytes = 0; while (bytes < ${half}) { hoard.push("x".repeat(65536) + hoard.length); bytes += 65536; } return bytes;`;
      expect(completedValue(await small.exec(below))).toBe(half);
    } finally {
      await small.close();
    }
  });
});

describe("Code Mode limits: bridge calls", () => {
  it("fails a cell that fires 10,000 calls at once after the cap, and the parent saw no more than the cap", async () => {
    const before = toolSearch.telemetry().searchCount;
    const outcome = await codeMode.exec(
      "await Promise.all(Array.from({ length: 10000 }, () => tools.search('forecast'))); return 'done';",
    );
    expect(errorOf(outcome).code).toBe("BRIDGE_CALL_LIMIT");
    expect(toolSearch.telemetry().searchCount - before).toBeLessThanOrEqual(DEFAULT_MAX_BRIDGE_CALLS);
  });

  it("lets exactly the cap of sequential calls through, and the next one fails the cell even when caught", async () => {
    const before = toolSearch.telemetry().searchCount;
    const outcome = await codeMode.exec(`
      let made = 0;
      try {
        for (let i = 0; i < 10000; i++) { await tools.search("forecast"); made++; }
      } catch (error) {
        return "caught after " + made;
      }
      return "finished";
    `);
    expect(errorOf(outcome).code).toBe("BRIDGE_CALL_LIMIT");
    expect(toolSearch.telemetry().searchCount - before).toBe(DEFAULT_MAX_BRIDGE_CALLS);
  });

  it("honours a smaller cap", async () => {
    const capped = createCodeMode({ toolSearch, maxBridgeCalls: 3 });
    try {
      expect(
        completedValue(await capped.exec("for (let i = 0; i < 3; i++) await tools.search('x'); return 3;")),
      ).toBe(3);
      expect(
        errorOf(await capped.exec("for (let i = 0; i < 4; i++) await tools.search('x'); return 4;")).code,
      ).toBe("BRIDGE_CALL_LIMIT");
    } finally {
      await capped.close();
    }
  });
});

describe("Code Mode limits: logs", () => {
  it("keeps the cell running past megabytes of console output and bounds the logs with a marker", async () => {
    const outcome = await codeMode.exec(`
      const line = "y".repeat(1000);
      for (let i = 0; i < 5000; i++) console.log(i, line);
      console.error("after the flood");
      return "still here";
    `);
    expect(outcome.status).toBe("completed");
    if (outcome.status !== "completed") return;
    expect(outcome.value).toBe("still here");
    expect(outcome.logs.at(-1)).toBe(logsTruncatedLine(maxLogBytes));
    expect(outcome.logs[0]).toBe(`0 ${"y".repeat(1000)}`);
    const kept = outcome.logs.slice(0, -1);
    expect(kept.reduce((total, line) => total + Buffer.byteLength(line) + 1, 0)).toBeLessThanOrEqual(
      maxLogBytes,
    );
    expect(outcome.logs).not.toContain("[error] after the flood");
  });

  it("keeps the logs of a cell that fails", async () => {
    const outcome = await codeMode.exec(
      "console.info('step 1'); console.error('step 2'); throw new Error('stop');",
    );
    expect(outcome).toEqual({
      status: "failed",
      error: { code: "CELL_ERROR", message: "Error: stop (line 1 of the cell)" },
      logs: ["step 1", "[error] step 2"],
    });
  });

  it("keeps the logs written before a timeout", async () => {
    const outcome = await codeMode.exec("console.log('before'); while (true) {}");
    expect(outcome).toMatchObject({ status: "failed", error: { code: "TIMEOUT" }, logs: ["before"] });
  });
});
