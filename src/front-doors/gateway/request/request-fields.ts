import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { MAX_INPUT_ITEMS, MAX_QUOTED_VALUE_CHARS } from "../limits.js";

/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

/**
 * A client's value as quoted in an error message: a string in JSON quotes, cut to `MAX_QUOTED_VALUE_CHARS`
 * characters (with the full length named); numbers, booleans and null as written; arrays and objects by kind
 * only. Never throws, whatever the value (a deep or huge one included).
 */
export function quoteValue(value: unknown): string {
  if (typeof value === "string") {
    if (value.length <= MAX_QUOTED_VALUE_CHARS) return JSON.stringify(value);
    const head = JSON.stringify(value.slice(0, MAX_QUOTED_VALUE_CHARS)).slice(0, -1);
    return `${head}..." (${value.length} characters)`;
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value;
}

/** Reads an optional string field; anything but a string or absent/null is a 400 naming `param`. */
export function optionalString(object: JsonObject, key: string, param = key): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidRequest(param, `${param} must be a string.`);
  return value;
}

/** Reads a required string field; a missing or non-string value is a 400 naming `param`. */
export function requiredString(object: JsonObject, key: string, param = key): string {
  const value = optionalString(object, key, param);
  if (value === undefined) throw invalidRequest(param, `${param} is required (a string).`);
  return value;
}

/** Reads an optional positive integer field (`max_output_tokens` and the like). */
export function optionalPositiveInteger(object: JsonObject, key: string): number | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw invalidRequest(key, `${key} must be a positive integer.`);
  }
  return value;
}

/** Reads `stream`: true asks for server-sent events, false or absent for the whole response; else a 400. */
export function readStream(body: JsonObject): boolean {
  const stream = body.stream;
  if (stream === undefined || stream === null) return false;
  if (typeof stream !== "boolean") throw invalidRequest("stream", "stream must be true or false.");
  return stream;
}

/** Refuses a `tool_choice` other than "auto": the agent decides which tools to call. */
export function refuseToolChoice(body: JsonObject): void {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null || choice === "auto") return;
  throw invalidRequest(
    "tool_choice",
    'only tool_choice "auto" is supported: the agent decides which tools to call. Omit tool_choice.',
    "unsupported_parameter",
  );
}

/** Reads an optional `model` field: `toolsift` or `toolsift/<agentId>` picks the agent; other names are accepted and ignored. */
export function readModel(body: JsonObject): string | undefined {
  return optionalString(body, "model");
}

/**
 * The entries of a request's list of turn items (`messages`, `input`), each an object with the param that
 * names it (`messages[3]`), one at a time: a 400 when the list is not an array (`notArray`) or holds more
 * than MAX_INPUT_ITEMS (counted in `unit`), and, when the loop reaches it, for an entry that is not an
 * object, so an earlier entry's own error comes first.
 */
export function* itemObjects(
  list: unknown,
  param: string,
  notArray: string,
  unit: string,
): Generator<{ raw: JsonObject; param: string }> {
  if (!Array.isArray(list)) throw invalidRequest(param, notArray);
  if (list.length > MAX_INPUT_ITEMS) {
    throw invalidRequest(param, `${param} may hold at most ${MAX_INPUT_ITEMS} ${unit}.`);
  }
  for (const [index, raw] of list.entries()) {
    const itemParam = `${param}[${index}]`;
    if (!isObjectRecord(raw)) throw invalidRequest(itemParam, `${itemParam} must be an object.`);
    yield { raw, param: itemParam };
  }
}
