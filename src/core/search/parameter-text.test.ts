import { describe, expect, it } from "vitest";
import { MAX_PARAMETER_TEXT_CHARS, MAX_PARAMETER_TEXT_NODES } from "./limits.js";
import { parameterText } from "./parameter-text.js";
import { recordingSchema } from "./search.test-support.js";

const lines = (schema: unknown): string[] => parameterText(schema).split("\n").filter(Boolean);

describe("parameterText", () => {
  it("collects descriptions and property names through properties, items, anyOf, oneOf and allOf", () => {
    const schema = {
      type: "object",
      description: "root",
      properties: {
        city: { type: "string", description: "the city" },
        tags: {
          type: "array",
          items: { type: "object", properties: { label: { description: "tag label" } } },
        },
        pair: { type: "array", items: [{ description: "first of pair" }, { description: "second of pair" }] },
        either: { anyOf: [{ description: "any one" }], oneOf: [{ description: "exactly one" }] },
        merged: { allOf: [{ properties: { extra: { description: "merged extra" } } }] },
      },
    };
    expect(lines(schema)).toEqual([
      "root",
      "city",
      "the city",
      "tags",
      "label",
      "tag label",
      "pair",
      "first of pair",
      "second of pair",
      "either",
      "any one",
      "exactly one",
      "merged",
      "extra",
      "merged extra",
    ]);
  });

  it("walks down to level 4 and no further", () => {
    const nest = (depth: number): object =>
      depth === 0
        ? { description: "bottom" }
        : { description: `level ${depth}`, properties: { [`p${depth}`]: nest(depth - 1) } };
    // Root is level 0 ("level 6"); level 4 is "level 2", whose property name is not read.
    expect(lines(nest(6))).toEqual([
      "level 6",
      "p6",
      "level 5",
      "p5",
      "level 4",
      "p4",
      "level 3",
      "p3",
      "level 2",
    ]);
  });

  it("never reads const or enum, and boolean schemas add nothing", () => {
    const log: string[] = [];
    const color = recordingSchema(log, {
      type: "string",
      description: "a colour",
      enum: ["red"],
      const: "red",
    });
    const text = parameterText({ properties: { color, anything: true, nothing: false } });
    expect(text.split("\n")).toEqual(["color", "a colour", "anything", "nothing"]);
    expect(log.filter((entry) => entry.includes("enum") || entry.includes("const"))).toEqual([]);
  });

  it("is bounded on cycles", () => {
    const schema: Record<string, unknown> = { description: "loop", properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    schema.items = schema;
    schema.anyOf = [schema, schema];
    expect(lines(schema)).toEqual(["loop", "self"]);
  });

  it("survives throwing getters, revoked proxies and non-schema values", () => {
    const throwing = Object.defineProperty({}, "description", {
      get() {
        throw new Error("boom");
      },
      enumerable: true,
    });
    const { proxy, revoke } = Proxy.revocable({ description: "gone" }, {});
    revoke();
    const hostileKeys = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    const lengthBomb = {
      valueOf: () => {
        throw new Error("length");
      },
    };
    const schema = {
      description: "ok",
      properties: { throwing, revoked: proxy, weird: 42, keys: { properties: hostileKeys } },
      items: proxy,
      anyOf: new Proxy([{ description: "hidden" }], {
        get: (target, key) => (key === "length" ? lengthBomb : Reflect.get(target, key)),
      }),
      oneOf: "not a list",
    };
    expect(lines(schema)).toEqual(["ok", "throwing", "revoked", "weird", "keys"]);
    for (const value of [undefined, null, 1, "text", true, Symbol("s"), () => 1, proxy]) {
      expect(parameterText(value)).toBe("");
    }
  });

  it("keeps __proto__ and other odd property names as plain text", () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"description":"proto field"},"constructor":{}}}');
    expect(lines(schema)).toEqual(["__proto__", "proto field", "constructor"]);
  });

  it("bounds huge schemas in nodes and characters", () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < MAX_PARAMETER_TEXT_NODES * 4; index += 1)
      properties[`p${index}`] = { description: "d" };
    expect(lines({ properties }).filter((line) => line === "d").length).toBeLessThan(
      MAX_PARAMETER_TEXT_NODES,
    );
    const text = parameterText({
      description: "x".repeat(MAX_PARAMETER_TEXT_CHARS * 3),
      properties: { a: {} },
    });
    expect(text.length).toBeLessThanOrEqual(MAX_PARAMETER_TEXT_CHARS);
  });
});
