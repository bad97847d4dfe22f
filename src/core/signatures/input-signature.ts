import { INPUT_SIGNATURE_LIMITS } from "./limits.js";
import { renderSchema } from "./render-schema.js";

/** The input signature of a schema that cannot be rendered within its budget, and of untrusted tools. */
export const UNKNOWN_SIGNATURE = "unknown";

/**
 * Compact TypeScript-style input signature of a trusted schema; "unknown" when it cannot fit its budget.
 * Omissions (too many properties, too deep, long unions) are marked with `...`; a rendering still longer
 * than 300 characters, a cycle, or a missing schema gives `unknown`. Never throws.
 */
export function inputSignature(schema: unknown): string {
  return (
    renderSchema(schema, { ...INPUT_SIGNATURE_LIMITS, complete: false, annotate: true }) ?? UNKNOWN_SIGNATURE
  );
}
