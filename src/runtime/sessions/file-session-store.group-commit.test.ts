import fs, { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFileSessionStore } from "./file-session-store.js";
import type { SessionEvent } from "./types.js";

const APPENDS = 200;

function userInput(text: string): SessionEvent {
  return {
    type: "user-input",
    at: "2026-01-01T00:00:00.000Z",
    items: [{ type: "message", role: "user", text }],
  };
}

function runSummary(turns: number): SessionEvent {
  return { type: "run-summary", at: "2026-01-01T00:00:00.000Z", status: "completed", turns, durationMs: 1 };
}

let root: string;
let stateDir: string;
let logFile: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-group-commit-"));
  stateDir = join(root, "state");
  logFile = join(stateDir, "agents", "main", "sessions", "s.jsonl");
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

/** Counts every fdatasync in this process (the writer calls it on the `node:fs` module object). */
async function countDatasyncs(): Promise<{ count: () => number }> {
  const spy = vi.spyOn(fs, "fdatasync");
  return { count: () => spy.mock.calls.length };
}

describe("createFileSessionStore: group commit", () => {
  it("writes concurrent appends to one file whole and in call order, and flushes concurrent summaries under fewer datasyncs than appends", async () => {
    const store = createFileSessionStore(stateDir);
    const datasyncs = await countDatasyncs();
    const seenOnDisk: boolean[] = [];
    const appends = Array.from({ length: APPENDS }, (_, index) =>
      store.append("main", "s", userInput(`line ${index}`)).then(() => {
        // Resolved only after the write that carries this line: it is in the file by now.
        seenOnDisk[index] = readFileSync(logFile, "utf8").includes(`"text":"line ${index}"`);
      }),
    );
    await Promise.all(appends);
    expect(seenOnDisk.filter(Boolean)).toHaveLength(APPENDS);
    const lines = (await readFile(logFile, "utf8")).split("\n");
    expect(lines.pop()).toBe("");
    expect(
      lines.map((line) => (JSON.parse(line) as { items: Array<{ text: string }> }).items[0]?.text),
    ).toEqual(Array.from({ length: APPENDS }, (_, index) => `line ${index}`));
    // Run summaries are flushed to the disk; concurrent ones share their datasyncs.
    await Promise.all(
      Array.from({ length: APPENDS }, (_, index) => store.append("main", "s", runSummary(index))),
    );
    expect(datasyncs.count()).toBeGreaterThan(0);
    expect(datasyncs.count()).toBeLessThan(APPENDS);
  });

  it("resolves each run summary only after a datasync that covers its line", async () => {
    const store = createFileSessionStore(stateDir);
    const datasyncs = await countDatasyncs();
    // Appended together: one write and one datasync carry them all.
    const together = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.append("main", "s", runSummary(index)).then(() => datasyncs.count()),
      ),
    );
    expect(together).toEqual(Array.from({ length: 10 }, () => 1));
    // Appended while a summary's write is in flight: they wait for a later datasync that covers them.
    const first = store.append("main", "s", runSummary(10)).then(() => datasyncs.count());
    await new Promise((resolve) => setImmediate(resolve));
    const later = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.append("main", "s", runSummary(11 + index)).then(() => datasyncs.count()),
      ),
    );
    expect(await first).toBeGreaterThanOrEqual(2);
    expect(Math.min(...later)).toBeGreaterThanOrEqual(3);
    expect(datasyncs.count()).toBeLessThan(21);
  });

  it("writes other lines at once without a datasync; a run summary flushes them with it", async () => {
    const store = createFileSessionStore(stateDir);
    const datasyncs = await countDatasyncs();
    for (let index = 0; index < 5; index += 1) {
      await store.append("main", "s", userInput(`plain ${index}`));
      // In the file (a crash of the process loses nothing) before append resolves, with no disk flush.
      expect(readFileSync(logFile, "utf8")).toContain(`"text":"plain ${index}"`);
    }
    expect(datasyncs.count()).toBe(0);
    await store.append("main", "s", runSummary(1));
    expect(datasyncs.count()).toBe(1);
  });

  it("starts a batch on a new line when the file ends in a torn write, and keeps the file 0600", async () => {
    const store = createFileSessionStore(stateDir);
    await store.append("main", "s", userInput("first"));
    await writeFile(logFile, '{"type":"user-inp', { flag: "a" });
    await Promise.all([store.append("main", "s", userInput("a")), store.append("main", "s", userInput("b"))]);
    const events = await store.read("main", "s");
    expect(events.map((event) => (event.type === "user-input" ? event.items[0] : undefined))).toEqual([
      { type: "message", role: "user", text: "first" },
      { type: "message", role: "user", text: "a" },
      { type: "message", role: "user", text: "b" },
    ]);
    expect((await stat(logFile)).mode & 0o777).toBe(0o600);
  });

  it("lets read wait for every append queued before it", async () => {
    const store = createFileSessionStore(stateDir);
    const pending = Array.from({ length: 30 }, (_, index) =>
      store.append("main", "s", userInput(`r${index}`)),
    );
    const events = await store.read("main", "s");
    expect(events).toHaveLength(30);
    await Promise.all(pending);
  });
});

describe("createFileSessionStore: open log files", () => {
  it("writes to the file the path names now when the log was removed between appends", async () => {
    const store = createFileSessionStore(stateDir);
    await store.append("main", "s", userInput("old"));
    await rm(logFile);
    await store.append("main", "s", userInput("new"));
    expect((await readFile(logFile, "utf8")).trim().split("\n")).toHaveLength(1);
    expect(await store.read("main", "s")).toEqual([userInput("new")]);
  });

  it("keeps appending whole lines when the open file was written by someone else meanwhile", async () => {
    const store = createFileSessionStore(stateDir);
    await store.append("main", "s", userInput("one"));
    await writeFile(logFile, `${JSON.stringify(userInput("other"))}\n`, { flag: "a" });
    await store.append("main", "s", userInput("two"));
    expect(await store.read("main", "s")).toEqual([userInput("one"), userInput("other"), userInput("two")]);
  });
});
