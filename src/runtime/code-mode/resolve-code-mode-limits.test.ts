import { describe, expect, it } from "vitest";
import { resolveCodeModeLimits, resolveYieldMs } from "./resolve-code-mode-limits.js";

describe("resolveCodeModeLimits", () => {
  it("uses the documented defaults", () => {
    expect(resolveCodeModeLimits({})).toEqual({
      timeoutMs: 10_000,
      memoryLimitBytes: 64 * 2 ** 20,
      maxBridgeCalls: 256,
      maxLogBytes: 16 * 1024,
      poolSize: 1,
    });
  });

  it.each([
    ["timeoutMs below the range", { timeoutMs: 10 }, "timeoutMs", 1_000],
    ["timeoutMs above the range", { timeoutMs: 600_000 }, "timeoutMs", 60_000],
    ["timeoutMs inside the range, rounded", { timeoutMs: 2_500.4 }, "timeoutMs", 2_500],
    ["timeoutMs not a number", { timeoutMs: "5000" }, "timeoutMs", 10_000],
    ["timeoutMs NaN", { timeoutMs: Number.NaN }, "timeoutMs", 10_000],
    ["memory below the minimum", { memoryLimitBytes: 1 }, "memoryLimitBytes", 8 * 2 ** 20],
    ["memory above the maximum", { memoryLimitBytes: 2 ** 40 }, "memoryLimitBytes", 512 * 2 ** 20],
    ["bridge calls below one", { maxBridgeCalls: 0 }, "maxBridgeCalls", 1],
    ["bridge calls above the ceiling", { maxBridgeCalls: 1e9 }, "maxBridgeCalls", 10_000],
    ["logs below the minimum", { maxLogBytes: 3 }, "maxLogBytes", 1024],
    ["pool size above two", { poolSize: 9 }, "poolSize", 2],
    ["pool size below one", { poolSize: 0 }, "poolSize", 1],
  ])("clamps %s", (_name, options, key, expected) => {
    expect(resolveCodeModeLimits(options)[key as keyof ReturnType<typeof resolveCodeModeLimits>]).toBe(
      expected,
    );
  });
});

describe("resolveYieldMs", () => {
  it.each([
    [undefined, 10_000],
    [0, 0],
    [-5, 0],
    [250, 250],
    [10 ** 9, 60_000],
    [Number.POSITIVE_INFINITY, 10_000],
  ])("%s gives %s", (value, expected) => {
    expect(resolveYieldMs(value)).toBe(expected);
  });
});
