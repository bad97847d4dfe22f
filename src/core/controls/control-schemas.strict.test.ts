import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { createTestRuntime } from "./controls.test-support.js";
import { createControlTools } from "./create-control-tools.js";
import { tools } from "./create-control-tools.test-support.js";

/** Every place in a schema where `type` is not one string naming a non-null JSON type, with its path. */
function unionsAndNullTypes(schema: unknown, path = "$"): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const found: string[] = [];
  const record = schema as Record<string, unknown>;
  if ("type" in record && (typeof record.type !== "string" || record.type === "null")) {
    found.push(`${path}.type = ${JSON.stringify(record.type)}`);
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) if (key in record) found.push(`${path}.${key}`);
  if (record.nullable === true) found.push(`${path}.nullable`);
  for (const [key, value] of Object.entries(record)) {
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const [name, inner] of Object.entries(value))
        found.push(...unionsAndNullTypes(inner, `${path}.properties.${name}`));
    } else if (key === "items") {
      found.push(...unionsAndNullTypes(value, `${path}.items`));
    }
  }
  return found;
}

describe("the controls' input schemas", () => {
  const controlTools = createControlTools(createTestRuntime(tools));

  it.each(controlTools.map((tool) => [tool.name, tool.parameters] as const))(
    "%s uses single types only: no type unions, no null types, no anyOf/oneOf",
    (_name, parameters) => {
      expect(unionsAndNullTypes(parameters)).toEqual([]);
    },
  );

  it("the walker catches the constructs strict clients reject", () => {
    expect(
      unionsAndNullTypes({
        type: "object",
        properties: { a: { type: ["string", "null"] }, b: { type: "null" }, c: { anyOf: [] } },
        items: { nullable: true },
      }),
    ).toEqual([
      '$.properties.a.type = ["string","null"]',
      '$.properties.b.type = "null"',
      "$.properties.c.anyOf",
      "$.items.nullable",
    ]);
  });

  it.each(controlTools.map((tool) => [tool.name, tool.parameters] as const))(
    "%s compiles under Ajv strict mode (strict types, tuples and required included)",
    (_name, parameters) => {
      const ajv = new Ajv({ strict: true, strictTypes: true, strictTuples: true, strictRequired: true });
      expect(() => ajv.compile(parameters as object)).not.toThrow();
    },
  );
});
