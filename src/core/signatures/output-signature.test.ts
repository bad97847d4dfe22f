import { describe, expect, it } from "vitest";
import { outputSignature } from "./output-signature.js";

/** A closed object: every key required unless listed in `optional`. */
const closed = (properties: Record<string, unknown>, optional: readonly string[] = []) => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  additionalProperties: false,
});

function nestedClosed(levels: number): unknown {
  let schema: unknown = { type: "string" };
  for (let level = 0; level < levels; level += 1) schema = closed({ k: schema });
  return schema;
}

describe("outputSignature: complete schemas", () => {
  it("renders the search-result example", () => {
    const schema = closed({
      days: {
        type: "array",
        items: closed({ date: { type: "string" }, high: { type: "number" }, low: { type: "number" } }),
      },
    });
    expect(outputSignature(schema)).toBe("{ days: Array<{ date: string; high: number; low: number }> }");
  });

  it("renders a top-level array of closed objects", () => {
    const schema = { type: "array", items: closed({ paid: { type: "boolean" }, id: { type: "string" } }) };
    expect(outputSignature(schema)).toBe("Array<{ id: string; paid: boolean }>");
  });

  it.each([
    [
      "optional keys after required ones",
      closed({ b: { type: "string" }, a: { type: "number" } }, ["a"]),
      "{ b: string; a?: number }",
    ],
    ["a closed object without properties", { type: "object", additionalProperties: false }, "{}"],
    ["an unknown field is allowed", closed({ policy: {} }), "{ policy: unknown }"],
    [
      "no constraint notes",
      closed({ n: { type: "integer", minimum: 0 }, s: { type: "string", minLength: 1 } }),
      "{ n: number; s: string }",
    ],
    ["enums", closed({ mode: { enum: ["drip", "flood"] } }), '{ mode: "drip" | "flood" }'],
    ["nullable", closed({ note: { type: "string", nullable: true } }), "{ note: string | null }"],
    [
      "a pure union",
      { anyOf: [closed({ ok: { const: true } }), closed({ error: { type: "string" } })] },
      "{ ok: true } | { error: string }",
    ],
    ["type arrays", closed({ v: { type: ["string", "null"] } }), "{ v: string | null }"],
    ["scalars", { type: "string" }, "string"],
    ["eight literals", { enum: [1, 2, 3, 4, 5, 6, 7, 8] }, "1 | 2 | 3 | 4 | 5 | 6 | 7 | 8"],
  ])("%s", (_name, schema, expected) => {
    expect(outputSignature(schema)).toBe(expected);
  });

  it("renders 20 properties and six levels", () => {
    const twenty = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [`k${index}`, { type: "null" }]),
    );
    expect(outputSignature(closed(twenty))?.split(": null").length).toBe(21);
    expect(outputSignature(nestedClosed(6))).toBe("{ k: { k: { k: { k: { k: { k: string } } } } } }");
  });

  it("renders up to 800 characters", () => {
    // "{ a: " + quoted literal + " }" = 5 + (n + 2) + 2
    expect(outputSignature(closed({ a: { const: "x".repeat(791) } }))).toHaveLength(800);
    expect(outputSignature(closed({ a: { const: "x".repeat(792) } }))).toBeUndefined();
  });
});

describe("outputSignature: anything incomplete is not shown", () => {
  const inner = { type: "string" };
  it.each([
    ["no schema", undefined],
    ["an empty schema", {}],
    ["true", true],
    ["a non-object schema", "string"],
    ["an open object", { type: "object", properties: { a: inner }, required: ["a"] }],
    ["an open object without properties", { type: "object" }],
    ["additionalProperties: true", { type: "object", properties: { a: inner }, additionalProperties: true }],
    ["typed extra values", { type: "object", additionalProperties: inner }],
    ["a nested open object", closed({ a: { type: "object", properties: { b: inner } } })],
    ["$ref", closed({ a: { $ref: "#/defs/a" } })],
    ["allOf", { allOf: [closed({ a: inner })] }],
    ["patternProperties", { ...closed({ a: inner }), patternProperties: { "^x": inner } }],
    [
      "if/then",
      { ...closed({ a: inner }), ...JSON.parse('{"if":{"required":["a"]},"then":{"required":["a"]}}') },
    ],
    ["if alone", { ...closed({ a: inner }), if: { required: ["a"] } }],
    ["not", { type: "string", not: { const: "x" } }],
    ["mixed union and base shape", { ...closed({ a: inner }), anyOf: [closed({ a: inner })] }],
    ["a union beside required", { required: ["a"], anyOf: [closed({ a: inner })] }],
    ["anyOf and oneOf together", { anyOf: [inner], oneOf: [inner] }],
    [
      "more than 20 properties",
      closed(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, inner]))),
    ],
    ["more than six levels", nestedClosed(7)],
    ["more than eight literals", { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
    ["more than eight union members", { anyOf: Array.from({ length: 9 }, (_, index) => ({ const: index })) }],
    ["a literal without compact form", { enum: [{ a: 1 }] }],
    ["a tuple", { type: "array", items: [inner] }],
    ["prefixItems", { type: "array", prefixItems: [inner] }],
    ["an unknown type name", { type: "decimal" }],
    ["a non-array enum", { enum: "a" }],
    ["properties that are not an object", { type: "object", properties: 3, additionalProperties: false }],
  ])("%s", (_name, schema) => {
    expect(outputSignature(schema)).toBeUndefined();
  });

  it("is undefined for a cyclic schema", () => {
    const node: Record<string, unknown> = { type: "object", additionalProperties: false, required: ["next"] };
    node.properties = { next: node };
    expect(outputSignature(node)).toBeUndefined();
  });
});
