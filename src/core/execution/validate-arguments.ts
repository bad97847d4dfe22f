import { ToolsiftError } from "../../shared/errors/index.js";
import { cutText } from "../../shared/text/index.js";
import type { CatalogEntry } from "../catalog/index.js";
import { inputSignature } from "../signatures/index.js";
import { describeValidationErrors } from "./format-validation-errors.js";
import { MAX_SCHEMA_ERROR_CHARS } from "./limits.js";
import { suggestProperties } from "./suggest-properties.js";
import type { ValidatorCache } from "./validator-cache.js";

/** The ` Did you mean: a, b?` and ` Expected input: <signature>.` tail of an invalid-arguments message. */
function hints(suggestions: readonly string[], parameters: unknown): string {
  let tail = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "";
  let signature: string;
  try {
    signature = inputSignature(parameters);
  } catch {
    signature = "unknown";
  }
  if (signature !== "unknown") tail += ` Expected input: ${signature}.`;
  return tail;
}

/**
 * Pipeline step 6: checks `args` against a native entry's `parameters` before execution. MCP and client
 * schemas are never touched (their own boundary validates); an entry without parameters accepts anything.
 * Failures are INVALID_ARGUMENTS: `Invalid arguments for tool "<id>": <problems joined by "; ">.`, then
 * ` Did you mean: <names>?` and ` Expected input: <signature>.` when they apply. A schema ajv cannot
 * compile is reported as `Tool "<id>" has an invalid input schema and cannot be called: <reason>.`, and
 * arguments the validator cannot walk (too deep, unreadable) as an invalid-arguments message saying so.
 */
export function validateArguments(entry: CatalogEntry, args: unknown, cache: ValidatorCache): void {
  if (entry.source !== "native" || entry.parameters === undefined) return;
  const compiled = cache.compile(entry.parameters);
  if (!compiled.ok) {
    const reason = cutText(compiled.reason, MAX_SCHEMA_ERROR_CHARS);
    throw new ToolsiftError(
      "INVALID_ARGUMENTS",
      `Tool "${entry.id}" has an invalid input schema and cannot be called: ${reason}. Report this to the tool's author; no arguments can satisfy it.`,
    );
  }
  let valid: boolean;
  try {
    valid = compiled.validate(args) === true;
  } catch {
    throw new ToolsiftError(
      "INVALID_ARGUMENTS",
      `Invalid arguments for tool "${entry.id}": arguments could not be checked (too deeply nested or unreadable); send plain JSON.${hints([], entry.parameters)}`,
    );
  }
  if (valid) return;
  const errors = compiled.validate.errors ?? [];
  const problems = describeValidationErrors(errors, "arguments");
  const message = `Invalid arguments for tool "${entry.id}": ${problems.join("; ")}.`;
  throw new ToolsiftError("INVALID_ARGUMENTS", message + hints(suggestProperties(errors), entry.parameters));
}
