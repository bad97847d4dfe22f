import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOG_RING_BYTES,
  DEFAULT_LOG_RING_LINES,
  LogRing,
  MAX_LOG_RING_LINE_CHARS,
} from "./log-ring.js";

function texts(ring: LogRing, query: Parameters<LogRing["page"]>[0]): string[] {
  return ring.page(query).lines.map((line) => line.text);
}

describe("LogRing", () => {
  it("numbers lines in write order, stamps their time, and keeps their text exactly", () => {
    let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
    const ring = new LogRing({ now: () => clock });
    ring.append("first <b>line</b> \\x1b[31m");
    clock += 1000;
    ring.append("second");
    expect(ring.page({ limit: 10 }).lines).toEqual([
      { seq: 1, time: "2026-01-02T03:04:05.000Z", text: "first <b>line</b> \\x1b[31m" },
      { seq: 2, time: "2026-01-02T03:04:06.000Z", text: "second" },
    ]);
  });

  it("keeps the defaults: 2,000 lines and 1 MiB", () => {
    expect(DEFAULT_LOG_RING_LINES).toBe(2000);
    expect(DEFAULT_LOG_RING_BYTES).toBe(1024 * 1024);
    const ring = new LogRing();
    for (let index = 1; index <= DEFAULT_LOG_RING_LINES + 5; index += 1) ring.append(`line ${index}`);
    expect(ring.size().lines).toBe(DEFAULT_LOG_RING_LINES);
    expect(ring.page({ after: 0, limit: 1 }).lines[0]?.text).toBe("line 6");
  });

  it("drops the oldest lines past the line bound and past the byte bound", () => {
    const byCount = new LogRing({ maxLines: 3 });
    for (const text of ["a", "b", "c", "d", "e"]) byCount.append(text);
    expect(texts(byCount, { after: 0, limit: 10 })).toEqual(["c", "d", "e"]);
    expect(byCount.size()).toEqual({ lines: 3, bytes: 3 });

    const byBytes = new LogRing({ maxBytes: 10 });
    for (const text of ["1234", "5678", "abcd"]) byBytes.append(text);
    expect(texts(byBytes, { after: 0, limit: 10 })).toEqual(["5678", "abcd"]);
    // Bytes are UTF-8 bytes: "é" is two.
    byBytes.append("éé");
    expect(byBytes.size()).toEqual({ lines: 2, bytes: 8 });
  });

  it("cuts a line longer than the longest kept, so one line cannot take the whole ring", () => {
    const ring = new LogRing();
    ring.append("x".repeat(MAX_LOG_RING_LINE_CHARS * 3));
    const [line] = ring.page({ limit: 1 }).lines;
    expect(line?.text).toHaveLength(MAX_LOG_RING_LINE_CHARS);
    expect(line?.text.endsWith("… (cut)")).toBe(true);
  });

  it("pages after a cursor, oldest first; `next` continues where the page stopped, `missed` counts dropped lines", () => {
    const ring = new LogRing({ maxLines: 5 });
    for (let index = 1; index <= 8; index += 1) ring.append(`line ${index}`);
    // Lines 1 to 3 are gone: a reader at 1 missed 2 and 3.
    const first = ring.page({ after: 1, limit: 2 });
    expect(first).toMatchObject({ next: 5, more: true, missed: 2 });
    expect(first.lines.map((line) => line.seq)).toEqual([4, 5]);
    const second = ring.page({ after: first.next, limit: 10 });
    expect(second).toMatchObject({ next: 8, more: false, missed: 0 });
    expect(second.lines.map((line) => line.seq)).toEqual([6, 7, 8]);
    expect(ring.page({ after: 8, limit: 10 })).toEqual({ lines: [], next: 8, more: false, missed: 0 });
    // A cursor from the future (another process's) is read as the newest line.
    expect(ring.page({ after: 99, limit: 10 })).toEqual({ lines: [], next: 8, more: false, missed: 0 });
    // Without a cursor: the newest lines, and the cursor of the newest line.
    expect(ring.page({ limit: 2 })).toMatchObject({ next: 8, missed: 0 });
    expect(texts(ring, { limit: 2 })).toEqual(["line 7", "line 8"]);
  });

  it("filters case-insensitively; the cursor still moves past lines that do not match", () => {
    const ring = new LogRing();
    for (const text of [
      "GET /v1/models 200 1ms",
      "console: key Alice signed in",
      "POST /x 404 2ms",
      "alice again",
    ])
      ring.append(text);
    expect(texts(ring, { after: 0, text: "ALICE", limit: 10 })).toEqual([
      "console: key Alice signed in",
      "alice again",
    ]);
    expect(texts(ring, { text: "alice", limit: 1 })).toEqual(["alice again"]);
    const none = ring.page({ after: 0, text: "nobody", limit: 10 });
    expect(none).toMatchObject({ lines: [], next: 4, more: false });
  });

  it("gives a level where the line says it: request status, warnings, errors", () => {
    const ring = new LogRing();
    const cases: Array<[string, string | undefined]> = [
      ["GET /v1/models 200 3ms", "info"],
      ["GET /nope 404 1ms", "warn"],
      ["GET /v1/models/hello world 401 0ms", "warn"],
      ["POST /v1/responses 500 9ms", "error"],
      ["warning: provider openai has no key", "warn"],
      ["[plugin x] warn: slow", "warn"],
      ["refused POST /console/api/logout: 403 forbidden_origin", "warn"],
      ["mcp servers failed to start: boom", "error"],
      ["gateway console: http://127.0.0.1/console", undefined],
    ];
    for (const [text] of cases) ring.append(text);
    expect(ring.page({ after: 0, limit: 20 }).lines.map((line) => [line.text, line.level])).toEqual(cases);
  });

  it("tells followers after each line; a follower that throws does not stop the log; unfollowing stops it", () => {
    const ring = new LogRing();
    const seen: number[] = [];
    const stop = ring.follow(() => seen.push(ring.page({ limit: 1 }).next));
    ring.follow(() => {
      throw new Error("a broken follower");
    });
    ring.append("one");
    ring.append("two");
    stop();
    ring.append("three");
    expect(seen).toEqual([1, 2]);
    expect(ring.size().lines).toBe(3);
  });
});
