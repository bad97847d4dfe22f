import type { CatalogEntry } from "../catalog/index.js";
import { MAX_DESCRIBE_SCHEMA_CHARS } from "./limits.js";
import { modelText, toModelData } from "./model-data.js";
import { boundedCandidate, toCandidate } from "./to-candidate.js";
import type { ToolDescription } from "./types.js";

/**
 * `tool_describe`'s answer: the full candidate descriptor, the input schema as received (`{}` when missing)
 * and, for `native` entries that declare one, the output schema. Schemas are passed by reference and never
 * read here, so an untrusted schema is returned exactly as received.
 */
export function describeEntry(entry: CatalogEntry): ToolDescription {
  const parameters = entry.parameters === undefined || entry.parameters === null ? {} : entry.parameters;
  const outputSchema =
    entry.source === "native" && entry.outputSchema !== undefined && entry.outputSchema !== null
      ? { outputSchema: entry.outputSchema }
      : {};
  return { ...toCandidate(entry, { compact: false }), parameters, ...outputSchema };
}

/**
 * The model-facing text of a description: compact JSON, label and description bounded. Each schema is copied through a bounded, guarded
 * `JSON.stringify`; a schema that is cyclic, unreadable, not JSON or larger than 65,536 characters is
 * replaced by a note saying so, so a hostile schema can never crash the control or flood the prompt.
 */
export function describeText(description: ToolDescription): string {
  const { parameters, outputSchema, ...descriptor } = description;
  const text: Record<string, unknown> = {
    ...boundedCandidate(descriptor),
    parameters: schemaForModel(parameters),
  };
  if ("outputSchema" in description) text.outputSchema = schemaForModel(outputSchema);
  return modelText(text);
}

function schemaForModel(schema: unknown): unknown {
  const copy = toModelData(schema, MAX_DESCRIBE_SCHEMA_CHARS);
  if (copy.ok) return copy.data;
  return `[schema not shown: ${copy.reason}. Call the tool with the arguments its description asks for; it validates them itself.]`;
}
