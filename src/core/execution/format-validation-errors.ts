import type { ErrorObject } from "ajv";
import { cutText } from "../../shared/text/index.js";
import {
  MAX_ERROR_PATH_CHARS,
  MAX_ERROR_VALUE_CHARS,
  MAX_EXAMINED_VALIDATION_ERRORS,
  MAX_LISTED_ENUM_VALUES,
  MAX_LISTED_VALIDATION_ERRORS,
} from "./limits.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/u;

/** Decodes a JSON Pointer (ajv's `instancePath`) into its segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/gu, "/").replace(/~0/gu, "~"));
}

/** Renders a property path readably: `opts.marker`, `items[0].name`, `["odd key"]`; cut when very long. */
export function renderPath(segments: readonly string[]): string {
  let path = "";
  for (const segment of segments) {
    if (/^(?:0|[1-9][0-9]*)$/u.test(segment)) path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return cutText(path, MAX_ERROR_PATH_CHARS);
}

/** JSON text of a value for a message, cut; values that do not serialise are shown as `?`. */
function literal(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return cutText(text ?? "?", MAX_ERROR_VALUE_CHARS);
  } catch {
    return "?";
  }
}

function params(error: ErrorObject): Record<string, unknown> {
  return error.params as Record<string, unknown>;
}

/** `property "a.b"`, or the root's name (`arguments`, `details`). */
function subject(segments: readonly string[], rootName: string): string {
  return segments.length === 0 ? rootName : `property ${JSON.stringify(renderPath(segments))}`;
}

function child(segments: readonly string[], name: unknown): string {
  return JSON.stringify(renderPath([...segments, String(name)]));
}

function typeList(types: unknown): string {
  const list = Array.isArray(types) ? types.map(String) : String(types).split(",");
  return list.join(" or ");
}

function describeOne(error: ErrorObject, rootName: string, subErrors: readonly ErrorObject[]): string {
  const segments = pointerSegments(error.instancePath);
  const who = subject(segments, rootName);
  const p = params(error);
  switch (error.keyword) {
    case "required":
      return `missing required property ${child(segments, p.missingProperty)}`;
    case "additionalProperties":
      return `unexpected property ${child(segments, p.additionalProperty)}`;
    case "unevaluatedProperties":
      return `unexpected property ${child(segments, p.unevaluatedProperty)}`;
    case "dependencies":
    case "dependentRequired":
      return `missing property ${child(segments, p.missingProperty)} (required when ${child(segments, p.property)} is present)`;
    case "type":
      return `${who} must be ${typeList(p.type)}`;
    case "enum": {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      const shown = allowed.slice(0, MAX_LISTED_ENUM_VALUES).map(literal).join(", ");
      const more = allowed.length > MAX_LISTED_ENUM_VALUES ? ", ..." : "";
      return `${who} must be one of ${shown}${more}`;
    }
    case "const":
      return `${who} must be ${literal(p.allowedValue)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `${who} must be ${String(p.comparison)} ${String(p.limit)}`;
    case "multipleOf":
      return `${who} must be a multiple of ${String(p.multipleOf)}`;
    case "minLength":
      return `${who} must have at least ${String(p.limit)} characters`;
    case "maxLength":
      return `${who} must have at most ${String(p.limit)} characters`;
    case "minItems":
      return `${who} must have at least ${String(p.limit)} items`;
    case "maxItems":
      return `${who} must have at most ${String(p.limit)} items`;
    case "minProperties":
      return `${who} must have at least ${String(p.limit)} properties`;
    case "maxProperties":
      return `${who} must have at most ${String(p.limit)} properties`;
    case "uniqueItems":
      return `${who} must not contain duplicate items`;
    case "pattern":
      return `${who} must match pattern ${literal(p.pattern)}`;
    case "format":
      return `${who} must match format ${literal(p.format)}`;
    case "propertyNames":
      return `${who} has an invalid property name ${JSON.stringify(cutText(String(p.propertyName), MAX_ERROR_PATH_CHARS))}`;
    case "false schema":
      return `${who} is not allowed`;
    case "not":
      return `${who} must not match the excluded schema`;
    case "anyOf":
    case "oneOf": {
      const sameLevel = subErrors.filter((sub) => sub.instancePath === error.instancePath);
      const typesOnly = subErrors.length > 0 && subErrors.every((sub) => sub.keyword === "type");
      if (error.keyword === "oneOf" && Array.isArray(p.passingSchemas)) {
        return `${who} must match exactly one of its allowed shapes, but matches several`;
      }
      if (typesOnly && sameLevel.length === subErrors.length) {
        return `${who} must be ${sameLevel.map((sub) => typeList(params(sub).type)).join(" or ")}`;
      }
      return `${who} must match one of its allowed shapes`;
    }
    default:
      return `${who} ${error.message ?? "is invalid"}`;
  }
}

function isUnder(error: ErrorObject, branch: ErrorObject): boolean {
  return (
    error !== branch &&
    error.schemaPath.startsWith(`${branch.schemaPath}/`) &&
    (error.instancePath === branch.instancePath || error.instancePath.startsWith(`${branch.instancePath}/`))
  );
}

/**
 * Turns ajv errors into readable, de-duplicated problems: `missing required property "marker"`,
 * `property "count" must be integer`, `unexpected property "instructon"`, `arguments must be object`.
 * The errors under a failed `anyOf`/`oneOf` are folded into one problem for it. Only the first
 * MAX_EXAMINED_VALIDATION_ERRORS ajv errors are examined and at most MAX_LISTED_VALIDATION_ERRORS problems
 * are listed; anything beyond ends the list with `and N more` (or `and more` when not counted).
 */
export function describeValidationErrors(errors: readonly ErrorObject[], rootName: string): string[] {
  const examined = errors.slice(0, MAX_EXAMINED_VALIDATION_ERRORS);
  const branches = examined.filter((error) => error.keyword === "anyOf" || error.keyword === "oneOf");
  const problems = new Set<string>();
  for (const error of examined) {
    if (branches.some((branch) => isUnder(error, branch))) continue;
    const subErrors = branches.includes(error) ? examined.filter((sub) => isUnder(sub, error)) : [];
    problems.add(describeOne(error, rootName, subErrors));
  }
  const list = [...problems];
  const uncounted = errors.length > examined.length;
  if (list.length <= MAX_LISTED_VALIDATION_ERRORS) return uncounted ? [...list, "and more"] : list;
  const extra = list.length - MAX_LISTED_VALIDATION_ERRORS;
  const tail = uncounted ? "and more" : `and ${extra} more`;
  return [...list.slice(0, MAX_LISTED_VALIDATION_ERRORS), tail];
}
