import { describe, expect, it } from "vitest";
import { escapeControlCharacters } from "./escape-control-characters.js";

describe("escapeControlCharacters", () => {
  it.each([
    ["line feed", "/a\nGET /forged 200 1ms", "/a\\nGET /forged 200 1ms"],
    ["carriage return", "/a\rforged", "/a\\rforged"],
    ["escape (terminal colours)", "/\u001b[31mred", "/\\x1b[31mred"],
    ["NUL", "/a\u0000b", "/a\\x00b"],
    ["tab", "a\tb", "a\\tb"],
    ["DEL", "a\u007fb", "a\\x7fb"],
    ["C1 NEL", "a\u0085b", "a\\x85b"],
    ["C1 CSI", "a\u009b31mb", "a\\x9b31mb"],
    ["line separator", "a\u2028b", "a\\u2028b"],
    ["paragraph separator", "a\u2029b", "a\\u2029b"],
    ["right-to-left override", "a\u202eb", "a\\u202eb"],
    ["first strong isolate", "a\u2068b", "a\\u2068b"],
  ])("escapes %s", (_name, input, expected) => {
    expect(escapeControlCharacters(input)).toBe(expected);
  });

  it.each([
    ["plain text", "POST /v1/responses 200 30ms"],
    ["non-ASCII letters and emoji", "/caf\u00e9/\u65e5\u672c/\u{1f600}"],
    ["backslashes", "C:\\path\\n"],
    ["no-break space", "a\u00a0b"],
  ])("leaves %s unchanged", (_name, input) => {
    expect(escapeControlCharacters(input)).toBe(input);
  });

  it("is idempotent, so escaping at two layers does not double the escapes", () => {
    const once = escapeControlCharacters("a\n\u001b\u2028b");
    expect(escapeControlCharacters(once)).toBe(once);
  });
});
