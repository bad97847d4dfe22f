import { describe, expect, it } from "vitest";
import { connectionBudget, readDescriptorLimit } from "./descriptor-limit.js";
import { MAX_CONNECTIONS } from "./limits.js";

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe("readDescriptorLimit", () => {
  it("reads the soft and hard open-file limits from /proc/self/limits text", () => {
    expect(readDescriptorLimit(PROC_LIMITS)).toEqual({ soft: 1024, hard: 524288 });
    expect(
      readDescriptorLimit("Max open files            4096                 unlimited            files\n"),
    ).toEqual({ soft: 4096, hard: "unlimited" });
  });

  it("is undefined when the text does not say, or the soft limit is unlimited", () => {
    expect(readDescriptorLimit("Max cpu time unlimited unlimited seconds\n")).toBeUndefined();
    expect(
      readDescriptorLimit("Max open files            unlimited            unlimited            files\n"),
    ).toBeUndefined();
  });

  it("reads this process's own limit on Linux", () => {
    if (process.platform !== "linux") return;
    const limit = readDescriptorLimit();
    expect(limit?.soft).toBeGreaterThan(0);
  });
});

describe("connectionBudget", () => {
  it.each([
    // soft limit, cap, refusal limit, pressure
    [undefined, MAX_CONNECTIONS, 1_152, 768],
    [1_048_576, MAX_CONNECTIONS, 1_152, 768],
    [20_000, MAX_CONNECTIONS, 1_152, 768],
    [1_024, 668, 752, 501],
    [256, 99, 115, 74],
    [200, 49, 65, 36],
    [64, 1, 1, 1],
  ])("soft limit %s: cap %s, 503 up to %s, pressure from %s", (softLimit, cap, refusalLimit, pressure) => {
    const budget = connectionBudget(softLimit === undefined ? {} : { softLimit });
    expect(budget).toMatchObject({ cap, refusalLimit, pressure });
    // Every connection, refused ones included, leaves the reserve free.
    if (softLimit !== undefined && softLimit > 256)
      expect(budget.refusalLimit).toBeLessThanOrEqual(softLimit * 0.75);
  });

  it("keeps a smaller configured cap", () => {
    expect(connectionBudget({ maxConnections: 10, softLimit: 20_000 })).toMatchObject({
      cap: 10,
      refusalLimit: 26,
      pressure: 7,
    });
  });
});
