import { invalidRequest } from "../gateway-error.js";
import type { JsonObject } from "../request/request-fields.js";

/** The JSON kind a known Responses field must have when present (null counts as absent). */
type FieldKind = "string" | "boolean" | "number" | "object" | "string list" | "positive integer";

/**
 * Request fields the Responses API defines that toolsift accepts and does not act on, with the kind each
 * must have: a wrong kind is a 400 naming the field (a client bug worth telling), a right one is ignored.
 * `reasoning`, `text`, sampling and caching hints belong to the agent's configured model, not the client's.
 */
const ACCEPTED_FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ["include", "string list"],
  ["prompt_cache_key", "string"],
  ["prompt_cache_retention", "string"],
  ["client_metadata", "object"],
  ["metadata", "object"],
  ["parallel_tool_calls", "boolean"],
  ["text", "object"],
  ["reasoning", "object"],
  ["truncation", "string"],
  ["service_tier", "string"],
  ["user", "string"],
  ["safety_identifier", "string"],
  ["top_p", "number"],
  ["temperature", "number"],
  ["top_logprobs", "number"],
  ["max_tool_calls", "positive integer"],
  ["background", "boolean"],
  ["stream_options", "object"],
];

/** `tool_choice` strings; objects (`{ type: "function", name }`, `allowed_tools`, hosted forms) need a `type`. */
const TOOL_CHOICE_MODES: ReadonlySet<string> = new Set(["auto", "none", "required"]);

/**
 * Checks the Responses fields toolsift accepts without acting on them (see `ACCEPTED_FIELDS`), `tool_choice`
 * in every form (the agent decides which tools to call, so each is taken as `"auto"`), and refuses
 * `background: true` (a run is answered in its own request). Unknown fields are not looked at.
 */
export function checkAcceptedResponsesFields(body: JsonObject): void {
  for (const [key, kind] of ACCEPTED_FIELDS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (!hasKind(value, kind)) throw invalidRequest(key, `${key} must be ${article(kind)}.`);
  }
  if (body.background === true) {
    throw invalidRequest(
      "background",
      "background: true is not supported: the gateway answers a run in its own request. Omit background.",
      "unsupported_parameter",
    );
  }
  const text = body.text;
  if (text !== undefined && text !== null) {
    const textFields = text as JsonObject;
    if (
      textFields.format !== undefined &&
      textFields.format !== null &&
      !hasKind(textFields.format, "object")
    ) {
      throw invalidRequest("text.format", "text.format must be an object.");
    }
    if (
      textFields.verbosity !== undefined &&
      textFields.verbosity !== null &&
      typeof textFields.verbosity !== "string"
    ) {
      throw invalidRequest("text.verbosity", "text.verbosity must be a string.");
    }
  }
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return;
  if (
    typeof choice === "string"
      ? TOOL_CHOICE_MODES.has(choice)
      : hasKind(choice, "object") && typeof (choice as JsonObject).type === "string"
  ) {
    return;
  }
  throw invalidRequest(
    "tool_choice",
    'tool_choice must be "auto", "none", "required" or an object with a "type" (the agent decides which tools to call either way).',
  );
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
    case "boolean":
      return typeof value === kind;
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "string list":
      return Array.isArray(value) && value.every((entry) => typeof entry === "string");
    case "positive integer":
      return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
  }
}

function article(kind: FieldKind): string {
  if (kind === "string list") return "an array of strings";
  if (kind === "object") return "an object";
  if (kind === "boolean") return "true or false";
  return `a ${kind}`;
}
