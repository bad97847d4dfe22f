import { describe, expect, it } from "vitest";
import { modelText, toModelData } from "./model-data.js";

describe("toModelData", () => {
  it("copies JSON data into plain data", () => {
    const value = { a: [1, "two", null, true], b: { c: "d" } };
    const copy = toModelData(value, 1_000);
    expect(copy).toEqual({ ok: true, data: value });
    if (copy.ok) expect(copy.data).not.toBe(value);
  });

  it("keeps a __proto__ key as data without touching any prototype", () => {
    const copy = toModelData(JSON.parse('{"__proto__": {"polluted": 1}}'), 1_000);
    expect(copy.ok).toBe(true);
    if (!copy.ok) return;
    expect(Object.keys(copy.data as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copy.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [
      "a cycle",
      (() => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        return cyclic;
      })(),
    ],
    ["a BigInt", { n: 1n }],
    [
      "a throwing getter",
      {
        get boom(): never {
          throw new Error("boom");
        },
      },
    ],
    [
      "a throwing toJSON",
      {
        toJSON(): never {
          throw new Error("boom");
        },
      },
    ],
    ["10,000 levels of nesting", JSON.parse(`${"[".repeat(10_000)}${"]".repeat(10_000)}`)],
  ])("refuses %s without throwing", (_label, value) => {
    expect(toModelData(value, 10_000_000)).toEqual({ ok: false, reason: expect.any(String) });
  });

  it("refuses values that are not JSON at all", () => {
    expect(toModelData(() => 1, 100)).toEqual({ ok: false, reason: "not a JSON value" });
    expect(toModelData(undefined, 100)).toEqual({ ok: false, reason: "not a JSON value" });
    expect(toModelData(Symbol("s"), 100)).toEqual({ ok: false, reason: "not a JSON value" });
  });

  it("is bounded in characters and in values", () => {
    expect(toModelData("x".repeat(101), 100)).toEqual({ ok: false, reason: "larger than 100 characters" });
    expect(toModelData("x".repeat(90), 100).ok).toBe(true);
    expect(toModelData(new Array(200_000).fill(0), 100_000_000)).toEqual({
      ok: false,
      reason: "more than 100000 values",
    });
  });
});

describe("modelText", () => {
  it("is compact JSON", () => {
    expect(modelText({ a: [1] })).toBe('{"a":[1]}');
  });
});
