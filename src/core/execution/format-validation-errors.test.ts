import { describe, expect, it } from "vitest";
import { describeValidationErrors, pointerSegments, renderPath } from "./format-validation-errors.js";
import { createValidatorCache } from "./validator-cache.js";

function problems(schema: unknown, data: unknown, rootName = "arguments"): string[] {
  const compiled = createValidatorCache().compile(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  expect(compiled.validate(data)).toBe(false);
  return describeValidationErrors(compiled.validate.errors ?? [], rootName);
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("describeValidationErrors", () => {
  const probes: Array<[string, unknown, unknown, string[]]> = [
    [
      "missing required",
      object({ marker: {} }, { required: ["marker"] }),
      {},
      ['missing required property "marker"'],
    ],
    [
      "wrong type",
      object({ count: { type: "integer" } }),
      { count: "3" },
      ['property "count" must be integer'],
    ],
    [
      "forbidden extra",
      object({ instruction: {} }, { additionalProperties: false }),
      { instructon: 1 },
      ['unexpected property "instructon"'],
    ],
    ["root type", object({}), [], ["arguments must be object"]],
    ["type union", { type: ["string", "null"] }, 1, ["arguments must be string or null"]],
    [
      "enum",
      object({ mode: { enum: ["drip", "flood"] } }),
      { mode: "x" },
      ['property "mode" must be one of "drip", "flood"'],
    ],
    ["const", object({ v: { const: 2 } }), { v: 1 }, ['property "v" must be 2']],
    ["minimum", object({ days: { minimum: 1 } }), { days: 0 }, ['property "days" must be >= 1']],
    ["exclusiveMaximum", object({ d: { exclusiveMaximum: 14 } }), { d: 14 }, ['property "d" must be < 14']],
    ["multipleOf", object({ n: { multipleOf: 5 } }), { n: 3 }, ['property "n" must be a multiple of 5']],
    [
      "minLength",
      object({ s: { minLength: 2 } }),
      { s: "a" },
      ['property "s" must have at least 2 characters'],
    ],
    ["maxItems", object({ a: { maxItems: 1 } }), { a: [1, 2] }, ['property "a" must have at most 1 items']],
    [
      "uniqueItems",
      object({ a: { uniqueItems: true } }),
      { a: [1, 1] },
      ['property "a" must not contain duplicate items'],
    ],
    ["pattern", object({ s: { pattern: "^a" } }), { s: "b" }, ['property "s" must match pattern "^a"']],
    ["false schema", object({ x: false }), { x: 1 }, ['property "x" is not allowed']],
    [
      "not",
      object({ x: { not: { type: "string" } } }),
      { x: "s" },
      ['property "x" must not match the excluded schema'],
    ],
    [
      "nested paths",
      object({
        items: { type: "array", items: object({ name: { type: "string" } }, { required: ["name"] }) },
      }),
      { items: [{ name: "a" }, {}, { name: 2 }] },
      ['missing required property "items[1].name"', 'property "items[2].name" must be string'],
    ],
    [
      "anyOf of types folds into one union",
      object({ v: { anyOf: [{ type: "string" }, { type: "number" }] } }),
      { v: true },
      ['property "v" must be string or number'],
    ],
    [
      "anyOf of shapes",
      object({ v: { anyOf: [object({}, { required: ["a"] }), object({}, { required: ["b"] })] } }),
      { v: {} },
      ['property "v" must match one of its allowed shapes'],
    ],
    [
      "oneOf matching several",
      { oneOf: [{ type: "number" }, { type: "integer" }] },
      1,
      ["arguments must match exactly one of its allowed shapes, but matches several"],
    ],
    [
      "dependentRequired",
      { $schema: "https://json-schema.org/draft/2020-12/schema", dependentRequired: { a: ["b"] } },
      { a: 1 },
      ['missing property "b" (required when "a" is present)'],
    ],
    [
      "odd keys are JSON-quoted",
      object({ "a b": { type: "string" } }),
      { "a b": 1 },
      ['property "[\\"a b\\"]" must be string'],
    ],
  ];
  it.each(probes)("describes %s", (_name, schema, data, expected) => {
    expect(problems(schema, data)).toEqual(expected);
  });

  it("names the root after the checked value", () => {
    expect(problems({ type: "object" }, 1, "details")).toEqual(["details must be object"]);
  });

  it("de-duplicates and lists at most eight problems, counting the rest", () => {
    const data = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`extra${index}`, 1]));
    const list = problems(object({}, { additionalProperties: false }), data);
    expect(list).toHaveLength(9);
    expect(list[8]).toBe("and 4 more");
  });

  it("bounds the work on a flood of errors", () => {
    const data = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`k${index}`, 1]));
    const list = problems(object({}, { additionalProperties: false }), data);
    expect(list).toHaveLength(9);
    expect(list[8]).toBe("and more");
  });

  it("cuts a huge property name in the message", () => {
    const list = problems(object({}, { additionalProperties: false }), { ["x".repeat(100_000)]: 1 });
    expect(list[0]!.length).toBeLessThan(120);
  });
});

describe("paths", () => {
  it("decodes JSON pointers and renders readable paths", () => {
    expect(pointerSegments("/a~1b/0/c~0d")).toEqual(["a/b", "0", "c~d"]);
    expect(renderPath(["opts", "marker"])).toBe("opts.marker");
    expect(renderPath(["items", "0", "name"])).toBe("items[0].name");
    expect(renderPath(["__proto__"])).toBe("__proto__");
    expect(renderPath(['a"b'])).toBe('["a\\"b"]');
  });
});
