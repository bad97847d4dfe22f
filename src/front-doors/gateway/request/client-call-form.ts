import { createHash } from "node:crypto";
import { MAX_TOOL_NAME_LENGTH } from "../limits.js";

/**
 * How a call of a client tool goes back to a Responses client, in the form it declared the tool: a
 * `function_call` (with `namespace` for a namespaced function) or a `custom_tool_call` with freeform `input`.
 */
export type ClientCallForm = {
  kind: "function" | "custom";
  /** The tool's own name, as the client declared it (not the name the model sees). */
  name: string;
  /** The namespace that declared it, when it sits in one. */
  namespace?: string;
};

/** Client call forms by the name the model calls the tool by; a name missing here is a plain function. */
export type ClientCallForms = ReadonlyMap<string, ClientCallForm>;

/** The one string parameter a custom (freeform) tool takes, as the model sees it. */
export const CUSTOM_TOOL_INPUT = "input";

/** Joins a namespace and its function's name into one model-facing name. */
const NAMESPACE_SEPARATOR = "__";

/** Hex characters of the digest that keeps a shortened namespaced name unique. */
const NAME_DIGEST_CHARS = 8;

const MODEL_NAME_PATTERN = /^[A-Za-z0-9_-]+$/u;

/**
 * The name the model calls a client tool by: its own name outside a namespace; `<namespace>__<name>`
 * inside one (OpenAI's function name rule, 1-64 of `A-Za-z0-9_-`). A joined name that breaks the rule (a
 * namespace with other characters, or too long) is cleaned and cut, with 8 hex characters of a SHA-256 of
 * the pair appended, so the name stays valid, stable across requests and distinct for distinct pairs.
 */
export function modelToolName(namespace: string | undefined, name: string): string {
  if (namespace === undefined) return name;
  const joined = `${namespace}${NAMESPACE_SEPARATOR}${name}`;
  if (joined.length <= MAX_TOOL_NAME_LENGTH && MODEL_NAME_PATTERN.test(joined)) return joined;
  const digest = createHash("sha256")
    .update(`${namespace}\u0000${name}`)
    .digest("hex")
    .slice(0, NAME_DIGEST_CHARS);
  const cleaned = joined.replace(/[^A-Za-z0-9_-]/gu, "_");
  return `${cleaned.slice(0, MAX_TOOL_NAME_LENGTH - NAME_DIGEST_CHARS - 1)}_${digest}`;
}

/** A custom tool call's freeform input from the model's arguments: `input` when a string, else the JSON. */
export function customToolInput(argumentsJson: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const input = (parsed as Record<string, unknown>)[CUSTOM_TOOL_INPUT];
      if (typeof input === "string") return input;
    }
  } catch {
    // Not JSON: the model's text is the input as it is.
    return argumentsJson;
  }
  return argumentsJson;
}
