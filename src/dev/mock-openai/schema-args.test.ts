import { describe, expect, it } from "vitest";
import { argumentsFromSchema } from "./schema-args.js";

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
});

describe("argumentsFromSchema", () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    ["the QA tool", object({ marker: { type: "string" } }, ["marker"]), { marker: "qa" }],
    [
      "every type, optional properties left out",
      object(
        {
          s: { type: "string" },
          n: { type: "number" },
          i: { type: "integer" },
          b: { type: "boolean" },
          a: { type: "array", items: { type: "string" } },
          o: { type: "object" },
          z: { type: "null" },
          optional: { type: "string" },
        },
        ["s", "n", "i", "b", "a", "o", "z"],
      ),
      { s: "qa", n: 1, i: 1, b: true, a: [], o: {}, z: null },
    ],
    [
      "enum first value, const, and a raised minimum",
      object(
        {
          e: { type: "string", enum: ["north", "south"] },
          c: { const: 7 },
          m: { type: "integer", minimum: 5 },
        },
        ["e", "c", "m"],
      ),
      { e: "north", c: 7, m: 5 },
    ],
    [
      "a type list prefers a non-null type; anyOf takes its first member",
      object({ t: { type: ["null", "number"] }, u: { anyOf: [{ type: "boolean" }, { type: "string" }] } }, [
        "t",
        "u",
      ]),
      { t: 1, u: true },
    ],
    [
      "nested required objects",
      object({ where: object({ city: { type: "string" }, zip: { type: "string" } }, ["city"]) }, ["where"]),
      { where: { city: "qa" } },
    ],
    [
      "required names that are not properties are skipped",
      object({ a: { type: "string" } }, ["a", "ghost"]),
      {
        a: "qa",
      },
    ],
    ["an object schema without required", { type: "object", properties: { a: { type: "string" } } }, {}],
    ["no schema", undefined, {}],
    ["a non-object schema", { type: "string" }, {}],
    ["an array", [], {}],
  ])("%s", (_name, schema, expected) => {
    expect(argumentsFromSchema(schema)).toEqual(expected);
  });

  it("stops at a bounded depth on a cyclic schema", () => {
    const cyclic: Record<string, unknown> = { type: "object", required: ["self"] };
    cyclic.properties = { self: cyclic };
    let depth = 0;
    let node: unknown = argumentsFromSchema(cyclic);
    while (typeof node === "object" && node !== null && "self" in node) {
      node = (node as { self: unknown }).self;
      depth += 1;
    }
    expect(depth).toBe(8);
  });

  it("stops on a schema whose anyOf refers to itself", () => {
    const looping: Record<string, unknown> = {};
    looping.anyOf = [looping];
    expect(argumentsFromSchema({ type: "object", properties: { a: looping }, required: ["a"] })).toEqual({
      a: "qa",
    });
  });
});
