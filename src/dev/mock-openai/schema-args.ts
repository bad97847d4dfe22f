import { isObjectRecord } from "../../shared/schema/index.js";
import { MAX_ARGUMENT_DEPTH } from "./limits.js";

/** Value the planner gives a required string (and an argument of unknown type). */
export const PLACEHOLDER_STRING = "qa";

/** Value the planner gives a required number or integer (raised to a declared minimum). */
export const PLACEHOLDER_NUMBER = 1;

/**
 * Arguments for a tool, built from its JSON Schema: every required property gets a value by its type —
 * string `"qa"`, number or integer 1 (or the declared minimum when higher), boolean `true`, `null`, the
 * first `enum` value or the `const`, array `[]`, object its own required properties — and optional
 * properties are left out. A schema that is not an object schema gives `{}`.
 */
export function argumentsFromSchema(schema: unknown): Record<string, unknown> {
  const value = valueFor(schema, 0);
  return isObjectRecord(value) ? value : {};
}

function valueFor(schema: unknown, depth: number): unknown {
  if (!isObjectRecord(schema) || depth > MAX_ARGUMENT_DEPTH) return PLACEHOLDER_STRING;
  if (Object.hasOwn(schema, "const")) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = firstType(schema.type);
  if (type === undefined) {
    const member = firstMember(schema.anyOf) ?? firstMember(schema.oneOf);
    if (member !== undefined) return valueFor(member, depth + 1);
    if (isObjectRecord(schema.properties)) return objectFor(schema, depth);
    return PLACEHOLDER_STRING;
  }
  switch (type) {
    case "string":
      return PLACEHOLDER_STRING;
    case "number":
    case "integer":
      return typeof schema.minimum === "number" && schema.minimum > PLACEHOLDER_NUMBER
        ? Math.ceil(schema.minimum)
        : PLACEHOLDER_NUMBER;
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return [];
    case "object":
      return objectFor(schema, depth);
    default:
      return PLACEHOLDER_STRING;
  }
}

function objectFor(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (depth >= MAX_ARGUMENT_DEPTH || !isObjectRecord(schema.properties) || !Array.isArray(schema.required))
    return result;
  for (const name of schema.required) {
    if (typeof name !== "string" || !Object.hasOwn(schema.properties, name)) continue;
    Object.defineProperty(result, name, {
      value: valueFor(schema.properties[name], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

/** The first type of a `type` keyword (a list prefers its first non-null member). */
function firstType(type: unknown): string | undefined {
  if (typeof type === "string") return type;
  if (!Array.isArray(type)) return undefined;
  const names = type.filter((name): name is string => typeof name === "string");
  return names.find((name) => name !== "null") ?? names[0];
}

function firstMember(list: unknown): unknown {
  return Array.isArray(list) && list.length > 0 ? list[0] : undefined;
}
