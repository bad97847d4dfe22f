import { describe, expect, it } from "vitest";
import { argumentsFromSignature } from "./signature-args.js";

describe("argumentsFromSignature", () => {
  it.each<[string, string, Record<string, unknown>]>([
    ["the QA tool", "{ marker: string }", { marker: "qa" }],
    [
      "required keys only, each by type",
      '{ a: string; b: number /* integer, >= 1 */; c: boolean; d: "x" | "y"; e?: string; f: null }',
      { a: "qa", b: 1, c: true, d: "x", f: null },
    ],
    [
      "arrays, maps and open objects",
      "{ a: Array<string>; b: Record<string, number>; c: { ... }; d: Array<...> }",
      {
        a: [],
        b: {},
        c: {},
        d: [],
      },
    ],
    [
      "nested required keys",
      "{ where: { city: string; zip?: string }; n?: number }",
      { where: { city: "qa" } },
    ],
    ["a union prefers a non-null member", "{ a: null | number; b: string | null }", { a: 1, b: "qa" }],
    ["literals", '{ a: 3 | 4; b: false; c: -2.5; d: "q\\"uote" }', { a: 3, b: false, c: -2.5, d: 'q"uote' }],
    [
      "quoted keys",
      '{ "with space": string; "__proto__": number }',
      { "with space": "qa", ["__proto__"]: 1 },
    ],
    [
      "an intersection of objects merges them",
      "{ a: { x: string } & { y: number } }",
      { a: { x: "qa", y: 1 } },
    ],
    ["parentheses and a truncated union", '{ a: ("p" | "q") | ...; b: unknown }', { a: "p", b: "qa" }],
    ["more keys than shown", "{ a: string; ... }", { a: "qa" }],
    ["a tool without parameters", "{}", {}],
    ["unknown", "unknown", {}],
    ["a non-object signature", "string", {}],
    ["text that does not parse", "{ a: string", {}],
    ["trailing text", "{ a: string } extra", {}],
    ["an unknown type name", "{ a: Date }", {}],
    ["an unterminated note", "{ a: string /* oops }", {}],
  ])("%s", (_name, signature, expected) => {
    const args = argumentsFromSignature(signature);
    expect(args).toEqual(expected);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it("keeps __proto__ as an own key without touching the prototype", () => {
    const args = argumentsFromSignature("{ __proto__: string }");
    expect(Object.keys(args)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("stops at a bounded depth on deeply nested text", () => {
    const deep = `${"{ a: ".repeat(200)}string${" }".repeat(200)}`;
    expect(argumentsFromSignature(deep)).toEqual({});
  });
});
