import { buildCatalog, type CatalogEntry, type ToolDefinition } from "../../core/catalog/index.js";
import { omittedLine } from "../../core/directory/index.js";
import { inputSignature, outputSignature } from "../../core/signatures/index.js";
import { MAX_INDEXED_ID_CHARS } from "./limits.js";

/** The first line of the quick index. */
export const QUICK_INDEX_HEADING =
  'Catalog quick index (id(input) -> output; "?" when the output is unknown):';
/** The quick index line for a catalog without listable tools. */
export const QUICK_INDEX_EMPTY = "Catalog quick index: none.";
/** The trusted line standing in for MCP and client tools, whose names are never copied into the description. */
export const QUICK_INDEX_UNTRUSTED_LINE =
  "Policy-approved MCP and client tools are not listed here; find them with tools.search.";

const UNLISTABLE = /[\s\p{Cc}\p{Cf}\p{Cs}]/u;

/**
 * The quick index in exec's description: trusted (`native`) catalog entries as `- <id>(<input>) -> <output>`
 * in id order, the output signature only where it renders completely (else `?`). Within `budget`
 * characters, under the directory's rules: rows are dropped from the end and counted in `N additional tools
 * omitted.`, and ids that cannot be listed safely on one row are counted the same way. MCP and client
 * entries are never named: one trusted line says they are found with `tools.search`. Direct-only tools are
 * not in the catalog and not listed. Deterministic for equal tool sets.
 */
export function renderQuickIndex(tools: readonly ToolDefinition[], budget: number): string {
  const entries = buildCatalog(tools).snapshot.entries;
  const trusted = entries.filter((entry) => entry.source === "native");
  const tail = trusted.length < entries.length ? [QUICK_INDEX_UNTRUSTED_LINE] : [];
  const listable = trusted.filter(
    (entry) => entry.id.length <= MAX_INDEXED_ID_CHARS && !UNLISTABLE.test(entry.id),
  );
  let omitted = trusted.length - listable.length;

  // Room for the heading, the tail and the longest omitted line it could need, with their line breaks.
  const reserved = [QUICK_INDEX_HEADING, ...tail, omittedLine(trusted.length)].reduce(
    (total, line) => total + line.length + 1,
    0,
  );
  const rows: string[] = [];
  let used = reserved;
  for (const [index, entry] of listable.entries()) {
    const row = indexRow(entry);
    if (used + row.length + 1 > budget) {
      omitted += listable.length - index;
      break;
    }
    rows.push(row);
    used += row.length + 1;
  }
  if (rows.length === 0 && omitted === 0) return [QUICK_INDEX_EMPTY, ...tail].join("\n");
  return [QUICK_INDEX_HEADING, ...rows, ...(omitted > 0 ? [omittedLine(omitted)] : []), ...tail].join("\n");
}

function indexRow(entry: CatalogEntry): string {
  return `- ${entry.id}(${inputSignature(entry.parameters)}) -> ${outputSignature(entry.outputSchema) ?? "?"}`;
}
