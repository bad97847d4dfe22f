import { describe, expect, it } from "vitest";
import { type JsonValuePath, scanJson } from "./scan-json.js";

const keys = (path: JsonValuePath) => Array.from({ length: path.depth }, (_, level) => path.keyAt(level));

describe("scanJson", () => {
  it.each([
    "[]",
    "{}",
    ' { "a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": { "c": {} } } ',
    '"just a string"',
    "0",
  ])("accepts valid JSON: %s", (text) => {
    expect(scanJson(text)).toBeUndefined();
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it.each([
    ["", 1, "expected a value, found end of input"],
    ["[1,\n2,\n]", 3, 'expected a value, found "]"'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 'expected "," or "}", found "\\""'],
    ["{\n  a: 1\n}", 2, 'expected a property name in double quotes, found "a"'],
    ['{ "a" 1 }', 1, 'expected ":" after a property name, found "1"'],
    ['["abc\n"]', 1, "unterminated or invalid string"],
    ['["\\x"]', 1, "unterminated or invalid string"],
    ["[01]", 1, 'expected "," or "]", found "1"'],
    ["[1] [2]", 1, 'unexpected "[" after the JSON value'],
    ["[tru]", 1, 'expected a value, found "t"'],
    ["{\n\n", 3, "expected a property name in double quotes, found end of input"],
  ])("reports %j at line %i: %s", (text, line, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(scanJson(text)).toEqual({ line, reason });
  });

  it("reports the path and line of every value start", () => {
    const seen: string[] = [];
    scanJson('{\n "tools": [\n  {"name": "a"},\n  {"name": "b"}\n ]\n}', (path, line) => {
      seen.push(`${keys(path).join("/")}@${line}`);
    });
    expect(seen).toEqual(["@1", "tools@2", "tools/0@3", "tools/0/name@3", "tools/1@4", "tools/1/name@4"]);
  });

  it("decodes escaped keys in paths", () => {
    const seen: (string | number | undefined)[][] = [];
    scanJson('{"t\\u006fols": [1]}', (path) => seen.push(keys(path)));
    expect(seen).toContainEqual(["tools", 0]);
  });

  it("survives deep nesting without overflowing the stack", () => {
    const depth = 200_000;
    let values = 0;
    expect(scanJson("[".repeat(depth) + "]".repeat(depth), () => (values += 1))).toBeUndefined();
    expect(values).toBe(depth);
    expect(scanJson("[".repeat(depth))).toEqual({ line: 1, reason: "expected a value, found end of input" });
  });
});
