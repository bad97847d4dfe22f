import { describe, expect, it } from "vitest";
import { MAX_CHILD_MESSAGE_CHARS } from "./limits.js";
import { encodeParentMessage, readChildMessage } from "./protocol.js";

describe("readChildMessage", () => {
  it.each([
    ["ready", { type: "ready" }],
    ["a bridge call", { type: "call", id: 1, method: "search", args: '["x"]' }],
    ["a log line", { type: "log", level: "warn", text: "careful" }],
    ["a value", { type: "done", ok: true, value: '{"a":1}' }],
    ["a failure", { type: "done", ok: false, error: { code: "TIMEOUT", message: "late" } }],
  ])("accepts %s", (_name, message) => {
    expect(readChildMessage(JSON.stringify(message))).toEqual({ ok: true, message });
  });

  it.each([
    ["a non-string", { type: "ready" }, "a message that is not a JSON string"],
    ["a Buffer", Buffer.from("{}"), "a message that is not a JSON string"],
    ["invalid JSON", "{type: ready}", "a message that is not valid JSON"],
    ["an oversized string", "x".repeat(MAX_CHILD_MESSAGE_CHARS + 1), "an oversized message"],
    ["an unknown type", JSON.stringify({ type: "spawn" }), "a message of unknown shape or method"],
    [
      "an unknown method",
      JSON.stringify({ type: "call", id: 1, method: "eval", args: "[]" }),
      "a message of unknown shape or method",
    ],
    [
      "a fractional call id",
      JSON.stringify({ type: "call", id: 1.5, method: "call", args: "[]" }),
      "a message of unknown shape or method",
    ],
    [
      "args that are not a string",
      JSON.stringify({ type: "call", id: 1, method: "call", args: ["x"] }),
      "a message of unknown shape or method",
    ],
    [
      "an unknown log level",
      JSON.stringify({ type: "log", level: "trace", text: "x" }),
      "a message of unknown shape or method",
    ],
    ["an extra field", JSON.stringify({ type: "ready", pid: 1 }), "a message of unknown shape or method"],
    [
      "a lowercase error code",
      JSON.stringify({ type: "done", ok: false, error: { code: "oops", message: "x" } }),
      "a message of unknown shape or method",
    ],
    ["a JSON array", "[1,2]", "a message of unknown shape or method"],
    ["JSON null", "null", "a message of unknown shape or method"],
  ])("refuses %s", (_name, raw, reason) => {
    expect(readChildMessage(raw)).toEqual({ ok: false, reason });
  });

  it("reads __proto__ as a plain key, never as a prototype", () => {
    const read = readChildMessage('{"type":"ready","__proto__":{"polluted":1}}');
    expect(read.ok).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("encodeParentMessage", () => {
  it("encodes one JSON string", () => {
    const text = encodeParentMessage({
      type: "reply",
      id: 3,
      ok: false,
      error: { code: "BLOCKED", message: "no" },
    });
    expect(JSON.parse(text)).toEqual({
      type: "reply",
      id: 3,
      ok: false,
      error: { code: "BLOCKED", message: "no" },
    });
  });
});
