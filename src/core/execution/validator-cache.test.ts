import { describe, expect, it } from "vitest";
import { cloneSchema, UncloneableSchema } from "./clone-schema.js";
import { MAX_CACHED_VALIDATORS } from "./limits.js";
import { createValidatorCache, sharedValidatorCache } from "./validator-cache.js";

function compiledOk(cache: ReturnType<typeof createValidatorCache>, schema: unknown) {
  const compiled = cache.compile(schema);
  if (!compiled.ok) throw new Error(`expected a compiled schema, got: ${compiled.reason}`);
  return compiled.validate;
}

describe("createValidatorCache", () => {
  it("shares one validator between schemas with the same content", () => {
    const cache = createValidatorCache();
    const first = compiledOk(cache, { type: "object", properties: { a: { type: "string" } } });
    const second = compiledOk(cache, { properties: { a: { type: "string" } }, type: "object" });
    expect(second).toBe(first);
    expect(cache.size).toBe(1);
  });

  it("recompiles after an in-place change to the schema", () => {
    const cache = createValidatorCache();
    const schema: Record<string, unknown> = { type: "object", properties: { n: { type: "string" } } };
    expect(compiledOk(cache, schema)({ n: 1 })).toBe(false);
    (schema.properties as Record<string, unknown>).n = { type: "number" };
    expect(compiledOk(cache, schema)({ n: 1 })).toBe(true);
  });

  it("never shares compiled validators between caches", () => {
    const schema = { type: "string" };
    expect(compiledOk(createValidatorCache(), schema)).not.toBe(compiledOk(createValidatorCache(), schema));
  });

  it("keeps at most MAX_CACHED_VALIDATORS schemas, dropping the least recently used", () => {
    const cache = createValidatorCache();
    const first = compiledOk(cache, { const: 0 });
    for (let index = 1; index <= MAX_CACHED_VALIDATORS; index += 1) {
      compiledOk(cache, { const: index });
      if (index === MAX_CACHED_VALIDATORS - 1) compiledOk(cache, { const: 0 });
    }
    expect(cache.size).toBe(MAX_CACHED_VALIDATORS);
    expect(compiledOk(cache, { const: 0 })).toBe(first);
    const second = compiledOk(cache, { const: 1 });
    expect(compiledOk(cache, { const: 1 })).toBe(second);
  });

  it("keeps at most the limit it was given", () => {
    const cache = createValidatorCache(2);
    const first = compiledOk(cache, { const: "a" });
    compiledOk(cache, { const: "b" });
    compiledOk(cache, { const: "c" });
    expect(cache.size).toBe(2);
    expect(compiledOk(cache, { const: "a" })).not.toBe(first);
  });

  it("compiles schemas with the same $id one after another", () => {
    const cache = createValidatorCache();
    expect(compiledOk(cache, { $id: "https://example.com/x", type: "string" })("a")).toBe(true);
    expect(compiledOk(cache, { $id: "https://example.com/x", type: "number" })(1)).toBe(true);
  });

  it("picks the dialect from $schema and compiles unknown dialects as draft-07", () => {
    const cache = createValidatorCache();
    const v2020 = compiledOk(cache, {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
    });
    expect(v2020([1])).toBe(false);
    const v2019 = compiledOk(cache, {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      dependentRequired: { a: ["b"] },
    });
    expect(v2019({ a: 1 })).toBe(false);
    const draft4 = compiledOk(cache, { $schema: "http://json-schema.org/draft-04/schema#", type: "string" });
    expect(draft4("x")).toBe(true);
  });

  it("checks standard formats, and ignores unknown formats and keywords (strict: false)", () => {
    const cache = createValidatorCache();
    const dateTime = compiledOk(cache, { type: "string", format: "date-time", "x-ui": true });
    expect(dateTime("anything")).toBe(false);
    expect(dateTime("2026-11-29T10:00:00Z")).toBe(true);
    expect(compiledOk(cache, { type: "string", format: "x-custom-format" })("anything")).toBe(true);
  });

  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.properties = { self: cyclic };
  let deep: Record<string, unknown> = { type: "string" };
  for (let index = 0; index < 10_000; index += 1) deep = { type: "array", items: deep };
  const invalid: Array<[string, unknown, string]> = [
    ["a bad type", { type: "strin" }, "schema is invalid"],
    ["required not an array", { type: "object", required: "x" }, "schema is invalid"],
    ["a missing $ref", { $ref: "#/definitions/nowhere" }, "can't resolve reference"],
    ["a cycle", cyclic, "the schema contains a cycle"],
    [
      "a function value",
      { type: "string", default: () => 1 },
      "the schema contains a non-JSON value (function)",
    ],
    ["a BigInt", { maximum: 10n }, "the schema contains a non-JSON value (bigint)"],
    ["NaN", { maximum: Number.NaN }, "the schema contains a non-finite number"],
    ["10,000 levels of nesting", deep, "the schema is nested deeper than 256 levels"],
    ["a revoked proxy", revoked.proxy, "the schema could not be read"],
    ["a string", "object", "the schema is not an object or a boolean"],
    ["null", null, "the schema is not an object or a boolean"],
  ];
  it.each(invalid)("reports %s as a compile failure, never a throw", (_name, schema, reason) => {
    const compiled = createValidatorCache().compile(schema);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.reason).toContain(reason);
  });

  it("remembers compile failures by content", () => {
    const cache = createValidatorCache();
    const first = cache.compile({ type: "strin" });
    expect(cache.compile({ type: "strin" })).toBe(first);
  });

  it("accepts boolean schemas", () => {
    const cache = createValidatorCache();
    expect(compiledOk(cache, true)(123)).toBe(true);
    expect(compiledOk(cache, false)(123)).toBe(false);
  });
});

describe("sharedValidatorCache", () => {
  it("is one cache for the whole process, so every executor reuses a schema compiled once", () => {
    expect(sharedValidatorCache()).toBe(sharedValidatorCache());
    const schema = () => ({
      type: "object",
      properties: { shared: { type: "integer" } },
      required: ["shared"],
    });
    const first = compiledOk(sharedValidatorCache(), schema());
    expect(compiledOk(sharedValidatorCache(), schema())).toBe(first);
    expect(first({ shared: 1 })).toBe(true);
    expect(first({})).toBe(false);
  });

  it("reports a schema that fails to compile the same way as a cache of its own", () => {
    const shared = sharedValidatorCache().compile({ type: "strin" });
    const own = createValidatorCache().compile({ type: "strin" });
    expect(shared).toEqual(own);
    expect(shared.ok).toBe(false);
  });
});

describe("cloneSchema", () => {
  it("copies JSON content, drops undefined members and keeps __proto__ as an own key", () => {
    const source = JSON.parse('{"properties": {"__proto__": {"type": "string"}}, "required": ["__proto__"]}');
    source.description = undefined;
    const copy = cloneSchema(source) as Record<string, Record<string, unknown>>;
    expect(copy).not.toBe(source);
    expect(Object.keys(copy)).toEqual(["properties", "required"]);
    expect(Object.keys(copy.properties!)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copy.properties)).toBe(Object.prototype);
  });

  it("allows shared (non-cyclic) sub-schemas", () => {
    const shared = { type: "string" };
    expect(cloneSchema({ anyOf: [shared, shared] })).toEqual({ anyOf: [shared, shared] });
  });

  it("throws UncloneableSchema for symbols", () => {
    expect(() => cloneSchema({ a: Symbol("s") })).toThrow(UncloneableSchema);
  });
});
