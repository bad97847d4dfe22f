import { describe, expect, it } from "vitest";
import { MAX_TRACKED_CAUSES } from "./limits.js";
import { createRepeatLimitedLog } from "./repeat-limited-log.js";

describe("createRepeatLimitedLog", () => {
  it("logs each cause once, then reports the repeats as one count per period", async () => {
    const lines: string[] = [];
    const log = createRepeatLimitedLog((line) => lines.push(line), { reportEveryMs: 50 });
    for (let index = 0; index < 1_000; index += 1) log("EMFILE", "out of file descriptors (EMFILE)");
    log("other", "another cause");
    expect(lines).toEqual(["out of file descriptors (EMFILE)", "another cause"]);
    await expect.poll(() => lines.length).toBe(3);
    expect(lines[2]).toBe("out of file descriptors (EMFILE) (repeated 999 more times)");
    log.close();
  });

  it("logs a cause in full again once it was quiet for a whole period, and reports leftovers on close", async () => {
    const lines: string[] = [];
    const log = createRepeatLimitedLog((line) => lines.push(line), { reportEveryMs: 20 });
    log("a", "first");
    // Two periods pass: the first reports nothing (no repeats) and forgets the cause.
    await new Promise((resolve) => setTimeout(resolve, 100));
    log("a", "first");
    log("a", "first");
    log.close();
    expect(lines).toEqual(["first", "first", "first (repeated 1 more times)"]);
  });
});

describe("createRepeatLimitedLog: memory", () => {
  it("remembers at most MAX_TRACKED_CAUSES distinct causes; past that a cause is logged every time", () => {
    const lines: string[] = [];
    const log = createRepeatLimitedLog((line) => lines.push(line), { reportEveryMs: 60_000 });
    for (let index = 0; index < MAX_TRACKED_CAUSES; index += 1) log(`cause ${index}`, `line ${index}`);
    log("one too many", "extra");
    log("one too many", "extra");
    log("cause 0", "line 0");
    expect(lines).toHaveLength(MAX_TRACKED_CAUSES + 2);
    expect(lines.slice(-2)).toEqual(["extra", "extra"]);
    log.close();
  });
});
