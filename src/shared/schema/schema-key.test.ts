import { describe, expect, it } from "vitest";
import { MAX_SCHEMA_KEY_DEPTH, schemaKey } from "./schema-key.js";

/** An array schema nested `levels` deep around `leaf`. */
function nested(levels: number, leaf: unknown): unknown {
  let schema = leaf;
  for (let index = 0; index < levels; index += 1) schema = { type: "array", items: schema };
  return schema;
}

describe("schemaKey", () => {
  it("keys equal content alike, whatever the key order, and different content apart", () => {
    expect(schemaKey({ type: "object", properties: { a: { type: "string" } } })).toBe(
      schemaKey({ properties: { a: { type: "string" } }, type: "object" }),
    );
    expect(schemaKey(nested(3, { type: "string" }))).not.toBe(schemaKey(nested(3, { type: "number" })));
  });

  it("keys a hostile 100,000-level schema without running out of stack, marking what lies too deep", () => {
    const key = schemaKey(nested(100_000, { type: "string" }));
    expect(key).toContain('"[too-deep]"');
    expect(key).not.toContain('"string"');
  });

  it("reads every level down to the depth bound", () => {
    expect(schemaKey(nested(MAX_SCHEMA_KEY_DEPTH - 1, { type: "string" }))).toContain('"string"');
  });
});
