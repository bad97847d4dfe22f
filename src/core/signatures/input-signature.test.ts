import { describe, expect, it } from "vitest";
import { inputSignature } from "./input-signature.js";

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

/** A chain of `levels` nested objects, each holding the next under `k`, ending with a string. */
function nestedObjects(levels: number): unknown {
  let schema: unknown = { type: "string" };
  for (let level = 0; level < levels; level += 1) schema = object({ k: schema }, { required: ["k"] });
  return schema;
}

describe("inputSignature: the spec example", () => {
  it("renders required first, then optional keys, each lexical, whatever the declaration order", () => {
    const schema = object(
      {
        zones: { type: "array", items: { type: "string", enum: ["north", "south"] } },
        policy: {},
        mode: { type: "string", enum: ["drip", "flood"] },
        id: { type: "string", description: "The id" },
      },
      { required: ["id"] },
    );
    expect(inputSignature(schema)).toBe(
      '{ id: string; mode?: "drip" | "flood"; policy?: unknown; zones?: Array<"north" | "south"> }',
    );
  });

  it("renders the search-result example with integer bounds", () => {
    const schema = object(
      { days: { type: "integer", minimum: 1, maximum: 14 }, city: { type: "string" } },
      { required: ["city"] },
    );
    expect(inputSignature(schema)).toBe("{ city: string; days?: number /* integer, >= 1, <= 14 */ }");
  });
});

describe("inputSignature: types", () => {
  it.each([
    ["string", { type: "string" }, "string"],
    ["boolean", { type: "boolean" }, "boolean"],
    ["null", { type: "null" }, "null"],
    ["number", { type: "number" }, "number"],
    ["integer", { type: "integer" }, "number /* integer */"],
    ["integer bounds", { type: "integer", minimum: 0, maximum: 10 }, "number /* integer, >= 0, <= 10 */"],
    [
      "exclusive bounds",
      { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      "number /* > 0, < 1 */",
    ],
    [
      "draft-4 boolean exclusive bounds",
      { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true },
      "number /* > 0, < 5 */",
    ],
    [
      "the stricter of two lower bounds",
      { type: "number", minimum: 3, exclusiveMinimum: 1 },
      "number /* >= 3 */",
    ],
    ["multipleOf", { type: "number", multipleOf: 0.5 }, "number /* multiple of 0.5 */"],
    ["integer multipleOf 1 adds nothing", { type: "integer", multipleOf: 1 }, "number /* integer */"],
    ["non-finite bounds are ignored", { type: "number", minimum: Number.NaN, maximum: "9" }, "number"],
    [
      "string constraints",
      { type: "string", format: "email", minLength: 3, maxLength: 64 },
      "string /* format: email, minLength: 3, maxLength: 64 */",
    ],
    ["a zero minLength says nothing", { type: "string", minLength: 0 }, "string"],
    ["an unsafe format is not shown", { type: "string", format: "x */ evil" }, "string"],
    ["patterns are never shown", { type: "string", pattern: "^a*/$" }, "string"],
    ["array", { type: "array", items: { type: "string" } }, "Array<string>"],
    [
      "array constraints",
      { type: "array", items: { type: "number" }, minItems: 1, maxItems: 3 },
      "Array<number> /* minItems: 1, maxItems: 3 */",
    ],
    ["array without items", { type: "array" }, "Array<unknown>"],
    ["tuple items", { type: "array", items: [{ type: "string" }] }, "Array<unknown>"],
    ["prefixItems", { type: "array", prefixItems: [{ type: "string" }] }, "Array<unknown>"],
    ["items without type", { items: { type: "boolean" } }, "Array<boolean>"],
    ["empty schema", {}, "unknown"],
    ["true", true, "unknown"],
    ["false", false, "never"],
    ["description only", { description: "anything" }, "unknown"],
    ["an unknown type name", { type: "decimal" }, "unknown"],
  ])("%s", (_name, schema, expected) => {
    expect(inputSignature(schema)).toBe(expected);
  });
});

describe("inputSignature: literals and unions", () => {
  it.each([
    ["enum as a JSON literal union", { enum: ["a", 1, true, null] }, '"a" | 1 | true | null'],
    ["enum wins over type", { type: "string", enum: ["x", "y"] }, '"x" | "y"'],
    ["const", { const: "fixed" }, '"fixed"'],
    ["const null", { const: null }, "null"],
    ["const wins over enum", { const: 1, enum: [1, 2] }, "1"],
    ["escaped string literal", { const: 'a"b\nc' }, '"a\\"b\\nc"'],
    ["line separators escaped", { const: "a\u2028b\u2029c" }, '"a\\u2028b\\u2029c"'],
    ["eight literals", { enum: [1, 2, 3, 4, 5, 6, 7, 8] }, "1 | 2 | 3 | 4 | 5 | 6 | 7 | 8"],
    [
      "more than eight literals",
      { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
      "1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | ...",
    ],
    ["an empty enum", { enum: [] }, "never"],
    ["a duplicate literal", { enum: ["a", "a", "b"] }, '"a" | "b"'],
    ["an object literal has no compact form", { enum: [{ a: 1 }, "b"] }, "unknown"],
    ["a non-finite number", { const: Number.POSITIVE_INFINITY }, "unknown"],
    ["type array", { type: ["string", "null"] }, "string | null"],
    ["number and integer merge", { type: ["integer", "number"] }, "number"],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "number" }] }, "string | number"],
    ["oneOf", { oneOf: [{ type: "boolean" }, { const: "auto" }] }, 'boolean | "auto"'],
    ["nested unions flatten", { anyOf: [{ type: ["string", "null"] }, { type: "null" }] }, "string | null"],
    ["an unknown member widens the union", { anyOf: [{ type: "string" }, {}] }, "unknown"],
    ["nullable", { type: "string", nullable: true }, "string | null"],
    ["nullable already null", { type: ["string", "null"], nullable: true }, "string | null"],
    ["nullable enum", { enum: ["a", "b"], nullable: true }, '"a" | "b" | null'],
    [
      "nullable union",
      { anyOf: [{ type: "string" }, { type: "number" }], nullable: true },
      "string | number | null",
    ],
    ["nullable false", { type: "string", nullable: false }, "string"],
    [
      "base wins over a union beside it",
      { type: "string", anyOf: [{ format: "email" }, { format: "uri" }] },
      "string",
    ],
    [
      "more than eight union members",
      { anyOf: Array.from({ length: 9 }, (_, index) => ({ const: index })) },
      "0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | ...",
    ],
    [
      "allOf as an intersection",
      {
        allOf: [
          object({ a: { type: "string" } }),
          { anyOf: [object({ b: { type: "number" } }), { type: "null" }] },
        ],
      },
      "{ a?: string } & ({ b?: number } | null)",
    ],
    ["allOf with unknown members", { type: "string", allOf: [{}, { description: "x" }] }, "string"],
    [
      "an intersection inside a union is parenthesised",
      {
        anyOf: [
          { allOf: [object({ a: { type: "string" } }), object({ b: { type: "string" } })] },
          { type: "null" },
        ],
      },
      "({ a?: string } & { b?: string }) | null",
    ],
    ["$ref", { $ref: "#/definitions/x" }, "unknown"],
  ])("%s", (_name, schema, expected) => {
    expect(inputSignature(schema)).toBe(expected);
  });
});

describe("inputSignature: objects", () => {
  it("orders by code units, not locale", () => {
    const schema = object({ b: {}, B: {}, a: {}, _z: {}, Z: {} });
    expect(inputSignature(schema)).toBe(
      "{ B?: unknown; Z?: unknown; _z?: unknown; a?: unknown; b?: unknown }",
    );
  });

  it("puts every required key before every optional key", () => {
    const schema = object({ a: { type: "string" }, z: { type: "string" } }, { required: ["z"] });
    expect(inputSignature(schema)).toBe("{ z: string; a?: string }");
  });

  it("ignores required names that are not properties and non-string required items", () => {
    const schema = object({ a: { type: "string" } }, { required: ["ghost", 7, "a"] });
    expect(inputSignature(schema)).toBe("{ a: string }");
  });

  it("JSON-quotes keys that are not identifiers, keeping the prompt on one line", () => {
    const schema = object({ "a-b": {}, "x\ny": {}, "2x": {}, $ok: {}, ünï: {} });
    const signature = inputSignature(schema);
    expect(signature).toBe(
      '{ $ok?: unknown; "2x"?: unknown; "a-b"?: unknown; "x\\ny"?: unknown; "ünï"?: unknown }',
    );
    expect(signature).not.toContain("\n");
  });

  it.each([
    ["closed without properties", { type: "object", additionalProperties: false }, "{}"],
    ["open without properties", { type: "object" }, "{ ... }"],
    ["open with additionalProperties: true", { type: "object", additionalProperties: true }, "{ ... }"],
    [
      "typed extra values",
      { type: "object", additionalProperties: { type: "number" } },
      "Record<string, number>",
    ],
    ["declared empty properties", { type: "object", properties: {} }, "{}"],
    ["properties without type", { properties: { a: { type: "string" } } }, "{ a?: string }"],
    ["open object with properties lists them", object({ a: { type: "string" } }), "{ a?: string }"],
    ["properties that are not an object", { type: "object", properties: ["a"] }, "{ ... }"],
  ])("%s", (_name, schema, expected) => {
    expect(inputSignature(schema)).toBe(expected);
  });

  it("lists 16 properties and ends an overflowing object with '; ...'", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 17 }, (_, index) => [`p${String(index).padStart(2, "0")}`, { type: "string" }]),
    );
    const sixteen = Object.fromEntries(Object.entries(properties).slice(0, 16));
    const all16 = inputSignature(object(sixteen));
    expect(all16.endsWith("p15?: string }")).toBe(true);
    expect(all16).not.toContain("...");
    // A short key set so the 300-character budget is not what fails.
    const short = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [String.fromCharCode(97 + index), {}]),
    );
    const signature = inputSignature(object(short, { required: ["t"] }));
    expect(signature).toBe(
      "{ t: unknown; a?: unknown; b?: unknown; c?: unknown; d?: unknown; e?: unknown; f?: unknown; g?: unknown; " +
        "h?: unknown; i?: unknown; j?: unknown; k?: unknown; l?: unknown; m?: unknown; n?: unknown; o?: unknown; ... }",
    );
  });

  it("opens four levels of objects and marks the fifth with '{ ... }'", () => {
    expect(inputSignature(nestedObjects(4))).toBe("{ k: { k: { k: { k: string } } } }");
    expect(inputSignature(nestedObjects(5))).toBe("{ k: { k: { k: { k: { ... } } } } }");
  });

  it("counts arrays as levels and renders an array at the depth limit as Array<unknown> (valid TypeScript)", () => {
    const arrays = (levels: number): unknown => {
      let schema: unknown = { type: "string" };
      for (let level = 0; level < levels; level += 1) schema = { type: "array", items: schema };
      return schema;
    };
    const parameter = (levels: number): unknown => ({
      type: "object",
      properties: { grid: arrays(levels) },
      required: ["grid"],
    });
    // A parameter (the usual case: the root object is level 1) keeps four Array levels, as the reference.
    expect(inputSignature(parameter(3))).toBe("{ grid: Array<Array<Array<string>>> }");
    expect(inputSignature(parameter(4))).toBe("{ grid: Array<Array<Array<Array<unknown>>>> }");
    expect(inputSignature(parameter(5))).toBe("{ grid: Array<Array<Array<Array<unknown>>>> }");
    expect(inputSignature(parameter(9))).toBe("{ grid: Array<Array<Array<Array<unknown>>>> }");
    // A bare array schema has no root object: its first four levels render, the fifth is Array<unknown>.
    expect(inputSignature(arrays(4))).toBe("Array<Array<Array<Array<string>>>>");
    expect(inputSignature(arrays(5))).toBe("Array<Array<Array<Array<Array<unknown>>>>>");
    expect(inputSignature(arrays(9))).toBe("Array<Array<Array<Array<Array<unknown>>>>>");
  });

  it("does not include descriptions", () => {
    const schema = object({ a: { type: "string", description: "SECRET" } }, { description: "ALSO" });
    expect(inputSignature(schema)).toBe("{ a?: string }");
  });
});

describe("inputSignature: the 300-character budget", () => {
  const withLiteral = (length: number) => object({ a: { const: "x".repeat(length) } }, { required: ["a"] });

  it("keeps a signature of exactly 300 characters", () => {
    // "{ a: " + quoted literal + " }" = 5 + (n + 2) + 2
    const signature = inputSignature(withLiteral(291));
    expect(signature).toHaveLength(300);
    expect(signature.startsWith('{ a: "xxx')).toBe(true);
  });

  it("renders a signature that would exceed 300 characters as unknown", () => {
    expect(inputSignature(withLiteral(292))).toBe("unknown");
  });

  it("renders unknown when even the overflow-marked form is too long", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`property_number_${index}`, { type: "string" }]),
    );
    expect(inputSignature(object(properties))).toBe("unknown");
  });

  it("renders a missing or non-object schema as unknown", () => {
    for (const schema of [undefined, null, 42, "string", ["type"], () => 1]) {
      expect(inputSignature(schema)).toBe("unknown");
    }
  });
});
