import { describe, expect, it } from "vitest";
import { editDistance, suggestionThreshold, suggestProperties } from "./suggest-properties.js";
import { createValidatorCache } from "./validator-cache.js";

function suggestions(schema: unknown, data: unknown): string[] {
  const compiled = createValidatorCache().compile(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  compiled.validate(data);
  return suggestProperties(compiled.validate.errors ?? []);
}

const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

describe("suggestionThreshold", () => {
  it("is min(3, max(1, ceil(len/3)))", () => {
    expect([1, 3, 4, 6, 7, 9, 10, 30].map((length) => suggestionThreshold("x".repeat(length)))).toEqual([
      1, 1, 2, 2, 3, 3, 3, 3,
    ]);
  });
});

describe("editDistance", () => {
  it("counts edits and adjacent transpositions, capped above the limit", () => {
    expect(editDistance("instructon", "instruction", 3)).toBe(1);
    expect(editDistance("tetx", "text", 3)).toBe(1);
    expect(editDistance("kitten", "sitting", 3)).toBe(3);
    expect(editDistance("abc", "abc", 3)).toBe(0);
    expect(editDistance("a", "abcdefgh", 3)).toBe(4);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});

describe("suggestProperties", () => {
  it("suggests the declared name for a misspelt forbidden property", () => {
    expect(suggestions(closed({ instruction: {} }), { instructon: "x" })).toEqual(["instruction"]);
  });

  it("suggests a missing required name for an undeclared key beside it, on open schemas too", () => {
    const open = { type: "object", properties: { marker: {} }, required: ["marker"] };
    expect(suggestions(open, { markr: 1 })).toEqual(["marker"]);
  });

  it("does not suggest beyond the threshold of the typed name", () => {
    expect(suggestions(closed({ ab: {} }), { xy: 1 })).toEqual([]);
    expect(suggestions(closed({ count: {} }), { cnt: 1 })).toEqual(["count"]);
    expect(suggestions(closed({ count: {} }), { cn: 1 })).toEqual([]);
  });

  it("suggests at most three names, closest first", () => {
    const schema = closed({ alpha: {}, bravo: {}, charlie: {}, delta: {} });
    const data = { alpah: 1, bravvo: 1, charli: 1, dleta: 1, dlt: 1 };
    const list = suggestions(schema, data);
    expect(list).toHaveLength(3);
    expect(list).toEqual(["alpha", "bravo", "charlie"]);
  });

  it("renders nested suggestions as paths", () => {
    const schema = { type: "object", properties: { opts: closed({ mode: {} }) } };
    expect(suggestions(schema, { opts: { mdoe: 1 } })).toEqual(["opts.mode"]);
  });

  it("does not suggest a name that is already present", () => {
    expect(suggestions(closed({ text: {} }), { text: "a", txt: "b" })).toEqual([]);
  });
});
