import { collapseWhitespace, cutText } from "../../shared/text/index.js";
import type { CatalogEntry } from "../catalog/index.js";
import { inputSignature, outputSignature } from "../signatures/index.js";
import { BATCH_DESCRIPTION_CHARS, MAX_MODEL_DESCRIPTION_CHARS, MAX_MODEL_LABEL_CHARS } from "./limits.js";
import type { SearchCandidate } from "./types.js";

type EntrySignatures = { input: string; output: string | undefined };

const signatureCache = new WeakMap<CatalogEntry, EntrySignatures>();

/**
 * The candidate for an entry, in field order id, source, owner, name, label, description, input, output, mcp.
 * `input` is the compact signature for `native` entries and `"unknown"` for untrusted ones (whose schemas are
 * never read); `output` only for `native` entries whose output signature renders completely; never
 * `parameters`. Compact candidates (batch rules) carry a whitespace-collapsed description cut to 180
 * characters with "...". Signatures are computed once per entry.
 */
export function toCandidate(entry: CatalogEntry, options: { compact: boolean }): SearchCandidate {
  const signatures = signaturesOf(entry);
  const description = options.compact
    ? cutText(collapseWhitespace(entry.description), BATCH_DESCRIPTION_CHARS)
    : entry.description;
  return {
    id: entry.id,
    source: entry.source,
    owner: entry.owner,
    name: entry.name,
    ...(entry.label === "" ? {} : { label: entry.label }),
    description,
    input: signatures.input,
    ...(signatures.output === undefined ? {} : { output: signatures.output }),
    ...(entry.mcp ? { mcp: { server: entry.mcp.server, tool: entry.mcp.tool } } : {}),
  };
}

function signaturesOf(entry: CatalogEntry): EntrySignatures {
  const cached = signatureCache.get(entry);
  if (cached) return cached;
  const computed: EntrySignatures =
    entry.source === "native"
      ? { input: safeInputSignature(entry.parameters), output: safeOutputSignature(entry.outputSchema) }
      : { input: "unknown", output: undefined };
  signatureCache.set(entry, computed);
  return computed;
}

function safeInputSignature(schema: unknown): string {
  try {
    return inputSignature(schema);
  } catch {
    return "unknown";
  }
}

function safeOutputSignature(schema: unknown): string | undefined {
  if (schema === undefined || schema === null) return undefined;
  try {
    return outputSignature(schema);
  } catch {
    return undefined;
  }
}

/**
 * A candidate as a model-facing text shows it: label and description cut (with "...") to 512 and 8,192
 * characters. The catalog keeps tool metadata whole for the host (`details`); only the text is bounded.
 */
export function boundedCandidate<T extends SearchCandidate>(candidate: T): T {
  const label = candidate.label;
  const boundedLabel = label === undefined ? undefined : cutText(label, MAX_MODEL_LABEL_CHARS);
  const description = cutText(candidate.description, MAX_MODEL_DESCRIPTION_CHARS);
  if (boundedLabel === label && description === candidate.description) return candidate;
  return {
    ...candidate,
    ...(boundedLabel === undefined ? {} : { label: boundedLabel }),
    description,
  };
}
