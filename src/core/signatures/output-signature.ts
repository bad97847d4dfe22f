import { UNKNOWN_SIGNATURE } from "./input-signature.js";
import { OUTPUT_SIGNATURE_LIMITS } from "./limits.js";
import { renderSchema } from "./render-schema.js";

/**
 * Compact output signature, only when the schema renders completely within its budget; otherwise undefined.
 * Complete means closed objects only, nothing omitted, nothing a compact type cannot show, no cycle, so the
 * model is never invited to guess output fields. A schema that says nothing (`{}`, `true`) gives undefined.
 */
export function outputSignature(schema: unknown): string | undefined {
  const text = renderSchema(schema, { ...OUTPUT_SIGNATURE_LIMITS, complete: true, annotate: false });
  return text === UNKNOWN_SIGNATURE ? undefined : text;
}
