import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createFileSessionStore } from "./file-session-store.js";
import { MAX_SYNC_SESSION_READ_BYTES } from "./limits.js";
import type { SkippedSessionLine } from "./parse-session-log.js";
import type { SessionEvent } from "./types.js";

const AT = "2026-01-01T00:00:00.000Z";

function userInput(text: string, runId = "run-1"): SessionEvent {
  return { type: "user-input", at: AT, runId, items: [{ type: "message", role: "user", text }] };
}

function textOf(event: SessionEvent | undefined): string | undefined {
  if (event?.type !== "user-input") return undefined;
  const item = event.items[0];
  return item?.type === "message" ? item.text : undefined;
}

let root: string;
let stateDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-sessions-"));
  stateDir = join(root, "state");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function logPath(agentId: string, sessionKey: string): string {
  return join(stateDir, "agents", agentId, "sessions", `${sessionKey}.jsonl`);
}

describe("createFileSessionStore: append and read", () => {
  it("writes one whole JSON line per event at the documented path, creating directories", async () => {
    const store = createFileSessionStore(stateDir);
    await store.append("main", "s1", {
      type: "session",
      at: AT,
      version: 1,
      agentId: "main",
      sessionKey: "s1",
    });
    await store.append("main", "s1", userInput("hello"));
    const text = await readFile(logPath("main", "s1"), "utf8");
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "session", agentId: "main", sessionKey: "s1" });
    expect(JSON.parse(lines[1]!)).toMatchObject({ type: "user-input", runId: "run-1" });
    const events = await store.read("main", "s1");
    expect(events.map((event) => event.type)).toEqual(["session", "user-input"]);
    expect(textOf(events[1])).toBe("hello");
  });

  it("keeps 200 concurrent appends as 200 whole lines in call order", async () => {
    const store = createFileSessionStore(stateDir);
    const long = "x".repeat(5_000);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => store.append("main", "busy", userInput(`${index} ${long}`))),
    );
    const lines = (await readFile(logPath("main", "busy"), "utf8")).split("\n").filter(Boolean);
    expect(lines).toHaveLength(200);
    const texts = lines.map((line) => textOf(JSON.parse(line) as SessionEvent));
    expect(texts).toEqual(Array.from({ length: 200 }, (_, index) => `${index} ${long}`));
  });

  it("keeps concurrent appends to different sessions apart", async () => {
    const store = createFileSessionStore(stateDir);
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.append("main", index % 2 === 0 ? "even" : "odd", userInput(`${index}`)),
      ),
    );
    const even = (await store.read("main", "even")).map(textOf);
    const odd = (await store.read("main", "odd")).map(textOf);
    expect(even).toEqual(Array.from({ length: 25 }, (_, index) => `${index * 2}`));
    expect(odd).toEqual(Array.from({ length: 25 }, (_, index) => `${index * 2 + 1}`));
  });

  it("read waits for appends already queued", async () => {
    const store = createFileSessionStore(stateDir);
    const pending = store.append("main", "s", userInput("first"));
    const events = await store.read("main", "s");
    await pending;
    expect(events.map(textOf)).toEqual(["first"]);
  });

  it("serialises the event at call time: later changes by the caller are not written", async () => {
    const store = createFileSessionStore(stateDir);
    const event = userInput("original");
    const pending = store.append("main", "s", event);
    if (event.type === "user-input") event.items[0] = { type: "message", role: "user", text: "changed" };
    await pending;
    expect((await store.read("main", "s")).map(textOf)).toEqual(["original"]);
  });

  it("redacts secrets before writing", async () => {
    const store = createFileSessionStore(stateDir);
    const key = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL";
    await store.append("main", "s", {
      type: "target-activity",
      at: AT,
      runId: "r",
      parentCallId: "call_1",
      toolId: "native:weather:weather_now",
      name: "weather_now",
      source: "native",
      arguments: { city: "Paris", apiKey: "k-123", note: `key ${key}` },
      result: '{"token":"abc","temp":21}',
      isError: false,
    });
    const text = await readFile(logPath("main", "s"), "utf8");
    expect(text).not.toContain("k-123");
    expect(text).not.toContain(key);
    expect(text).not.toContain('\\"abc\\"');
    const [event] = await store.read("main", "s");
    expect(event).toMatchObject({
      arguments: { city: "Paris", apiKey: "[REDACTED]", note: "key [REDACTED]" },
      result: '{"token":"[REDACTED]","temp":21}',
    });
  });

  it("returns [] for a session that does not exist", async () => {
    const store = createFileSessionStore(stateDir);
    expect(await store.read("main", "nothing")).toEqual([]);
  });

  it("creates files readable by the owner only", async () => {
    if (process.platform === "win32") return;
    const store = createFileSessionStore(stateDir);
    await store.append("main", "s", userInput("x"));
    expect((await stat(logPath("main", "s"))).mode & 0o777).toBe(0o600);
  });
});

describe("createFileSessionStore: torn and bad lines", () => {
  it("skips a torn last line, and the next append starts on a new line", async () => {
    const reports: SkippedSessionLine[][] = [];
    const store = createFileSessionStore(stateDir, {
      onSkippedLines: (report) => reports.push(report.skipped),
    });
    await store.append("main", "s", userInput("one"));
    await store.append("main", "s", userInput("two"));
    const path = logPath("main", "s");
    await writeFile(path, `${await readFile(path, "utf8")}{"type":"user-input","at":"20`);

    expect((await store.read("main", "s")).map(textOf)).toEqual(["one", "two"]);
    expect(reports).toEqual([[{ line: 3, reason: "torn" }]]);

    await store.append("main", "s", userInput("three"));
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines[2]).toBe('{"type":"user-input","at":"20');
    expect(JSON.parse(lines[3]!)).toMatchObject({ type: "user-input" });
    expect((await store.read("main", "s")).map(textOf)).toEqual(["one", "two", "three"]);
    expect(reports[1]).toEqual([{ line: 3, reason: "not valid JSON" }]);
  });

  it("keeps a complete last event that only lacks its newline", async () => {
    const store = createFileSessionStore(stateDir);
    const path = logPath("main", "s");
    await mkdir(join(stateDir, "agents", "main", "sessions"), { recursive: true });
    await writeFile(path, JSON.stringify(userInput("whole")));
    expect((await store.read("main", "s")).map(textOf)).toEqual(["whole"]);
    await store.append("main", "s", userInput("next"));
    expect((await store.read("main", "s")).map(textOf)).toEqual(["whole", "next"]);
  });

  it("skips and reports unparsable or unknown lines in the middle, never throwing", async () => {
    const reports: SkippedSessionLine[][] = [];
    const store = createFileSessionStore(stateDir, {
      onSkippedLines: (report) => reports.push(report.skipped),
    });
    await mkdir(join(stateDir, "agents", "main", "sessions"), { recursive: true });
    const good = JSON.stringify(userInput("ok"));
    await writeFile(
      logPath("main", "s"),
      [good, "garbage{", "[1,2]", '{"type":"mystery"}', "", good, ""].join("\n"),
    );
    expect((await store.read("main", "s")).map(textOf)).toEqual(["ok", "ok"]);
    expect(reports).toEqual([
      [
        { line: 2, reason: "not valid JSON" },
        { line: 3, reason: "not a JSON object" },
        { line: 4, reason: "no known event type" },
      ],
    ]);
  });

  it("still reads when the skipped-line reporter throws", async () => {
    const store = createFileSessionStore(stateDir, {
      onSkippedLines: () => {
        throw new Error("reporter down");
      },
    });
    await mkdir(join(stateDir, "agents", "main", "sessions"), { recursive: true });
    await writeFile(logPath("main", "s"), `${JSON.stringify(userInput("ok"))}\n{"torn`);
    expect((await store.read("main", "s")).map(textOf)).toEqual(["ok"]);
  });
});

describe("createFileSessionStore: ids and keys", () => {
  const invalid: Array<[string, unknown]> = [
    ["parent traversal", "../x"],
    ["dot-dot", ".."],
    ["leading dot", ".hidden"],
    ["slash", "a/b"],
    ["backslash", "a\\b"],
    ["empty", ""],
    ["200 characters", "a".repeat(200)],
    ["129 characters", "a".repeat(129)],
    ["NUL", "a\u0000b"],
    ["space", "a b"],
    ["newline", "a\nb"],
    ["absolute path", "/etc/passwd"],
    ["non-string", 42],
  ];

  it.each(invalid)("rejects a session key with %s", async (_, key) => {
    const store = createFileSessionStore(stateDir);
    for (const action of [
      () => store.append("main", key as string, userInput("x")),
      () => store.read("main", key as string),
    ]) {
      const error = await action().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isToolsiftError(error) && error.code).toBe("INVALID_REQUEST");
      expect((error as Error).message).toContain('from A-Z, a-z, 0-9, ".", "_" and "-"');
      expect((error as Error).message).toContain("Invalid session key");
    }
    expect(await readdir(root)).toEqual([]);
  });

  it.each(invalid)("rejects an agent id with %s", async (_, agentId) => {
    const store = createFileSessionStore(stateDir);
    const error = await store.append(agentId as string, "s", userInput("x")).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isToolsiftError(error) && error.code).toBe("INVALID_REQUEST");
    expect((error as Error).message).toContain("Invalid agent id");
    expect(await readdir(root)).toEqual([]);
  });

  it("accepts the longest valid key and dotted or dashed keys", async () => {
    const store = createFileSessionStore(stateDir);
    for (const key of ["a".repeat(128), "v1.2_session-x", "0"]) {
      await store.append("agent-2", key, userInput(key));
      expect((await store.read("agent-2", key)).map(textOf)).toEqual([key]);
    }
  });
});

describe("createFileSessionStore: bad events and storage failures", () => {
  it("refuses an event without a known type", async () => {
    const store = createFileSessionStore(stateDir);
    const error = await store
      .append("main", "s", { type: "nope" } as unknown as SessionEvent)
      .catch((e: unknown) => e);
    expect(isToolsiftError(error) && error.code).toBe("INVALID_REQUEST");
    expect((error as Error).message).toContain("user-input");
  });

  it("refuses an event that is not JSON-serialisable and keeps the log usable", async () => {
    const store = createFileSessionStore(stateDir);
    const bad = { ...userInput("x"), extra: 10n } as unknown as SessionEvent;
    const error = await store.append("main", "s", bad).catch((e: unknown) => e);
    expect(isToolsiftError(error) && error.code).toBe("INVALID_REQUEST");
    await store.append("main", "s", userInput("after"));
    expect((await store.read("main", "s")).map(textOf)).toEqual(["after"]);
  });

  it("reports an unwritable state directory clearly, and later appends still run", async () => {
    const blocked = join(root, "blocked");
    await writeFile(blocked, "a file where the state directory should be");
    const store = createFileSessionStore(blocked);
    const error = await store.append("main", "s", userInput("x")).catch((e: unknown) => e);
    expect(isToolsiftError(error) && error.code).toBe("STORAGE_UNAVAILABLE");
    expect((error as Error).message).toContain(
      `in the state directory ${blocked}: a part of the path is a file`,
    );
    expect((error as Error).message).toContain("TOOLSIFT_STATE_DIR");
    const second = await store.append("main", "s", userInput("y")).catch((e: unknown) => e);
    expect(isToolsiftError(second)).toBe(true);
  });

  it("reads a log larger than the synchronous read bound whole, on the thread pool", async () => {
    const store = createFileSessionStore(stateDir);
    const big = "x".repeat(Math.ceil(MAX_SYNC_SESSION_READ_BYTES / 3));
    for (const index of [0, 1, 2, 3]) await store.append("main", "big", userInput(`${index}${big}`));
    expect((await stat(logPath("main", "big"))).size).toBeGreaterThan(MAX_SYNC_SESSION_READ_BYTES);
    const events = await store.read("main", "big");
    expect(events.map((event) => textOf(event)?.slice(0, 2))).toEqual(["0x", "1x", "2x", "3x"]);
    expect(events.every((event) => textOf(event)?.length === big.length + 1)).toBe(true);
  });

  it("refuses a symlinked session file instead of following it", async () => {
    if (process.platform === "win32") return;
    const outside = join(root, "outside.txt");
    await writeFile(outside, "do not touch\n");
    await mkdir(join(stateDir, "agents", "main", "sessions"), { recursive: true });
    await symlink(outside, logPath("main", "link"));
    const store = createFileSessionStore(stateDir);
    expect(isToolsiftError(await store.append("main", "link", userInput("x")).catch((e: unknown) => e))).toBe(
      true,
    );
    expect(isToolsiftError(await store.read("main", "link").catch((e: unknown) => e))).toBe(true);
    expect(await readFile(outside, "utf8")).toBe("do not touch\n");
  });
});

describe("createFileSessionStore: list", () => {
  it("returns [] when nothing was written", async () => {
    expect(await createFileSessionStore(stateDir).list()).toEqual([]);
  });

  it("lists every session of every agent, newest first, with its size", async () => {
    const store = createFileSessionStore(stateDir);
    await store.append("main", "old", userInput("a"));
    await store.append("main", "new", userInput("bb"));
    await store.append("helper", "mid", userInput("ccc"));
    await utimes(logPath("main", "old"), new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
    await utimes(
      logPath("helper", "mid"),
      new Date("2026-01-02T00:00:00Z"),
      new Date("2026-01-02T00:00:00Z"),
    );
    await utimes(logPath("main", "new"), new Date("2026-01-03T00:00:00Z"), new Date("2026-01-03T00:00:00Z"));
    const sessionsDir = join(stateDir, "agents", "main", "sessions");
    await writeFile(join(sessionsDir, "notes.txt"), "ignored");
    await writeFile(join(sessionsDir, ".hidden.jsonl"), "ignored");
    await mkdir(join(stateDir, "agents", "bad name", "sessions"), { recursive: true });
    await writeFile(join(stateDir, "agents", "bad name", "sessions", "x.jsonl"), "ignored");

    const listed = await store.list();
    expect(listed.map((entry) => `${entry.agentId}/${entry.sessionKey}`)).toEqual([
      "main/new",
      "helper/mid",
      "main/old",
    ]);
    expect(listed[0]).toEqual({
      agentId: "main",
      sessionKey: "new",
      updatedAt: "2026-01-03T00:00:00.000Z",
      bytes: (await stat(logPath("main", "new"))).size,
    });
  });
});
