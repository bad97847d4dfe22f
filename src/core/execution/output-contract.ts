import type { ValidateFunction } from "ajv";
import { ToolsiftError } from "../../shared/errors/index.js";
import type { CatalogEntry } from "../catalog/index.js";
import { describeValidationErrors } from "./format-validation-errors.js";
import type { ValidatorCache } from "./validator-cache.js";

/**
 * Pipeline step 5: compiles a native entry's `outputSchema` before anything runs. Returns the validator
 * (undefined when the entry has no output contract); an uncompilable schema is INVALID_OUTPUT_SCHEMA
 * `Tool "<id>" has an invalid outputSchema.` (the compiler's reason is its `cause`).
 */
export function compileOutputContract(
  entry: CatalogEntry,
  cache: ValidatorCache,
): ValidateFunction | undefined {
  if (entry.source !== "native" || entry.outputSchema === undefined) return undefined;
  const compiled = cache.compile(entry.outputSchema);
  if (compiled.ok) return compiled.validate;
  throw new ToolsiftError("INVALID_OUTPUT_SCHEMA", `Tool "${entry.id}" has an invalid outputSchema.`, {
    cause: compiled.reason,
  });
}

/**
 * Pipeline step 8: the result's final `details` must match the compiled output contract, else
 * OUTPUT_CONTRACT_VIOLATION `Tool "<id>" returned details that do not match its declared outputSchema: <problems>.`
 */
export function checkOutputContract(entry: CatalogEntry, validate: ValidateFunction, details: unknown): void {
  let problems: string[];
  try {
    if (validate(details) === true) return;
    problems = describeValidationErrors(validate.errors ?? [], "details");
  } catch {
    problems = ["details could not be checked (too deeply nested or unreadable)"];
  }
  throw new ToolsiftError(
    "OUTPUT_CONTRACT_VIOLATION",
    `Tool "${entry.id}" returned details that do not match its declared outputSchema: ${problems.join("; ")}.`,
  );
}
