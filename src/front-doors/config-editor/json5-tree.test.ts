import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { type Json5Node, parseJson5Tree } from "./json5-tree.js";

/** Checks every span against JSON5.parse: scalars parse to the value, keys match, commas are commas. */
function expectSpansMatch(text: string): void {
  const pending: [Json5Node, unknown][] = [[parseJson5Tree(text), JSON5.parse(text)]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, value] = next;
    const source = text.slice(node.start, node.end);
    expect(JSON5.parse(source)).toEqual(value);
    if (node.kind === "scalar") continue;
    expect(source[0]).toBe(node.kind === "object" ? "{" : "[");
    const keys = node.entries.map((entry) => entry.key);
    expect(new Set(keys)).toEqual(
      new Set(Object.keys(value as object).map((key) => (Array.isArray(value) ? Number(key) : key))),
    );
    for (const [index, entry] of node.entries.entries()) {
      if (entry.commaAt !== undefined) expect(text[entry.commaAt]).toBe(",");
      // With duplicate keys JSON5 keeps the last one; earlier ones have no value to compare with.
      if (node.entries.findLastIndex((other) => other.key === entry.key) !== index) continue;
      pending.push([entry.value, (value as Record<string | number, unknown>)[entry.key]]);
    }
  }
}

describe("parseJson5Tree", () => {
  const texts = [
    "{}",
    "[]",
    "  42  ",
    '"text"',
    "{ a: 1, b: [1, 2, { c: null }], }",
    "// leading\n{\n  // inside\n  a: 1, /* after */\n  'b': 'it\\'s', \"c\": \"x\\\"y\",\n}\n// trailing",
    "{ hex: 0xFF, inf: -Infinity, nan: NaN, lead: .5, trail: 5., plus: +1, exp: 1e3 }",
    "{ $key: 1, _k2: 2, \\u0061bc: 3, 'with space': 4, \"a.b\": 5 }",
    "{ s: 'line\\\ncontinued', u: '\\u00e9\\x41', slash: \"a/b//c\", star: \"/* not a comment */\" }",
    "{ nested: { deeper: { deepest: [[[]], {}] } } }",
    "\uFEFF{ bom: true }",
    "{\r\n  crlf: 1,\r\n  list: [\r\n    'x',\r\n  ],\r\n}\r\n",
    "{ dup: 1, dup: 2 }",
    "[1,2,3,]",
    "{a:1/*x*/,/*y*/b:2}",
  ];

  it.each(texts)("locates every value of %j", (text) => {
    expectSpansMatch(text);
  });

  it("records key, entry start and comma positions", () => {
    const text = "{ a: 1, 'b c': [true, null] }";
    const root = parseJson5Tree(text);
    if (root.kind !== "object") throw new Error("expected an object");
    expect(root).toMatchObject({ start: 0, end: text.length });
    const [a, b] = root.entries;
    expect(a).toMatchObject({ key: "a", start: 2, commaAt: 6, value: { kind: "scalar", start: 5, end: 6 } });
    expect(b?.key).toBe("b c");
    expect(b?.commaAt).toBeUndefined();
    expect(text.slice(b?.start, b?.value.end)).toBe("'b c': [true, null]");
  });

  it("handles nesting far deeper than the stack allows recursion for", () => {
    const depth = 200_000;
    const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const root = parseJson5Tree(text);
    expect(root).toMatchObject({ kind: "array", start: 0, end: text.length });
  });

  it.each(["{ a: 1 } x", "{ a 1 }", '{ a: "open }', "{ a: "])("refuses %j with CONFIG_INVALID", (text) => {
    expect(() => parseJson5Tree(text)).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
  });
});
