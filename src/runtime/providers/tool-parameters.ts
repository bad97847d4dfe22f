import { isObjectRecord } from "../../shared/schema/index.js";

/** The schema of a tool without usable parameters: an object with no properties. */
const NO_PARAMETERS: Readonly<Record<string, unknown>> = Object.freeze({ type: "object", properties: {} });

/**
 * A tool's parameters as the provider APIs expect them: a JSON Schema object. A missing or non-object
 * schema becomes an empty object schema (providers reject `null` or a bare type there).
 */
export function toolParameters(parameters: unknown): Record<string, unknown> {
  if (isObjectRecord(parameters)) return parameters;
  return { ...NO_PARAMETERS };
}
