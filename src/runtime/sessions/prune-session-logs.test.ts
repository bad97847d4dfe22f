import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pruneSessionLogs } from "./prune-session-logs.js";

const NOW = Date.parse("2026-06-01T00:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
let stateDir = "";

/** Writes `<stateDir>/agents/<agent>/sessions/<key>.jsonl` of `bytes` bytes, last written `ageMs` before NOW. */
async function log(agent: string, key: string, bytes: number, ageMs: number): Promise<void> {
  const dir = join(stateDir, "agents", agent, "sessions");
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${key}.jsonl`);
  await writeFile(path, "x".repeat(bytes));
  const at = new Date(NOW - ageMs);
  await utimes(path, at, at);
}

async function remaining(): Promise<string[]> {
  const files = await readdir(join(stateDir, "agents"), { recursive: true });
  return files.filter((file) => file.endsWith(".jsonl") || file.endsWith(".txt")).sort();
}

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "toolsift-prune-"));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe("pruneSessionLogs", () => {
  it("removes logs older than maxAgeDays and keeps the rest", async () => {
    await log("main", "old", 10, 40 * DAY);
    await log("main", "new", 10, 2 * DAY);
    await log("ops", "older", 10, 31 * DAY);
    const report = await pruneSessionLogs({ stateDir, maxAgeDays: 30, now: () => NOW });
    expect(report.removedBytes).toBe(20);
    expect(await remaining()).toEqual(["main/sessions/new.jsonl"]);
  });

  it("over maxTotalBytes, removes the oldest first until the rest fits", async () => {
    await log("main", "a", 100, 5 * DAY);
    await log("main", "b", 100, 4 * DAY);
    await log("ops", "c", 100, 3 * DAY);
    await log("ops", "d", 100, 2 * DAY);
    const report = await pruneSessionLogs({ stateDir, maxTotalBytes: 250, now: () => NOW });
    expect(report).toMatchObject({ removedBytes: 200, keptBytes: 200 });
    expect(await remaining()).toEqual(["ops/sessions/c.jsonl", "ops/sessions/d.jsonl"]);
  });

  it("never removes a log written recently (its session may be running), even over the limits", async () => {
    await log("main", "running", 1000, 60 * 1000);
    await log("main", "old", 10, 90 * DAY);
    const report = await pruneSessionLogs({ stateDir, maxAgeDays: 1, maxTotalBytes: 1, now: () => NOW });
    expect(report).toMatchObject({ removedBytes: 10, keptBytes: 1000 });
    expect(await remaining()).toEqual(["main/sessions/running.jsonl"]);
  });

  it("touches nothing without limits, nor files that are not session logs, nor a missing state dir", async () => {
    await log("main", "old", 10, 900 * DAY);
    await writeFile(join(stateDir, "agents", "main", "sessions", "notes.txt"), "keep");
    expect((await pruneSessionLogs({ stateDir, now: () => NOW })).removed).toEqual([]);
    await pruneSessionLogs({ stateDir, maxAgeDays: 1, now: () => NOW });
    expect(await remaining()).toEqual(["main/sessions/notes.txt"]);
    expect(await pruneSessionLogs({ stateDir: join(stateDir, "missing"), maxAgeDays: 1 })).toEqual({
      removed: [],
      removedBytes: 0,
      keptBytes: 0,
    });
  });
});
