import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { MAX_LISTED_PLUGIN_PROBLEMS } from "./limits.js";
import { pluginMessage } from "./plugin-message.js";

/** A compiled validator, or why the schema could not be compiled. */
export type CompiledPluginSchema = { ok: true; validate: ValidateFunction } | { ok: false; reason: string };

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

const OPTIONS: Options = {
  strict: false,
  allErrors: true,
  useDefaults: true,
  addUsedSchema: false,
  logger: false,
};

function ajvFor(schema: unknown): { ajv: Ajv; schema: unknown } {
  const declared =
    typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof declared === "string" && declared.includes("2020-12"))
    return { ajv: new Ajv2020(OPTIONS), schema };
  if (typeof declared === "string" && declared.includes("2019-09"))
    return { ajv: new Ajv2019(OPTIONS), schema };
  if (typeof declared === "string" && typeof schema === "object" && schema !== null) {
    const { $schema: _, ...rest } = schema as Record<string, unknown>;
    return { ajv: new Ajv(OPTIONS), schema: rest };
  }
  return { ajv: new Ajv(OPTIONS), schema };
}

/**
 * Compiles a JSON Schema supplied by a plugin or by toolsift (draft-07 by default, 2019-09 and 2020-12
 * by `$schema`), with `useDefaults` so validation fills declared defaults in. Never throws.
 */
export function compilePluginSchema(schema: unknown): CompiledPluginSchema {
  if (
    typeof schema !== "boolean" &&
    (typeof schema !== "object" || schema === null || Array.isArray(schema))
  ) {
    return { ok: false, reason: "a JSON Schema must be an object or a boolean" };
  }
  try {
    const chosen = ajvFor(schema);
    addFormats(chosen.ajv);
    return { ok: true, validate: chosen.ajv.compile(chosen.schema as object) };
  } catch (error) {
    return { ok: false, reason: pluginMessage(error) };
  }
}

/** `tools[2]`, `options.units` from an ajv instance path. */
function displayPath(error: ErrorObject): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const missing =
    error.keyword === "required"
      ? (error.params as { missingProperty?: unknown }).missingProperty
      : undefined;
  if (typeof missing === "string") segments.push(missing);
  return segments.reduce(
    (path, segment) =>
      /^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment,
    "",
  );
}

/** The ajv errors as `prefix.path: reason; …` (at most MAX_LISTED_PLUGIN_PROBLEMS, the rest counted). */
export function describeSchemaErrors(
  errors: readonly ErrorObject[] | null | undefined,
  prefix: string,
): string {
  const lines = (errors ?? []).map((error) => {
    const path = displayPath(error);
    const where = path ? `${prefix}${prefix ? "." : ""}${path}` : prefix || "(root)";
    const reason =
      error.keyword === "required"
        ? "is required"
        : error.keyword === "additionalProperties"
          ? `has unknown property "${String((error.params as { additionalProperty?: unknown }).additionalProperty)}"`
          : (error.message ?? "is invalid");
    return `${where}: ${reason}`;
  });
  const unique = [...new Set(lines)];
  const listed = unique.slice(0, MAX_LISTED_PLUGIN_PROBLEMS).join("; ");
  const more = unique.length - MAX_LISTED_PLUGIN_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}
