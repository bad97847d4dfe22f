import { type CatalogEntry, type ToolDefinition, toCatalogEntry } from "../../core/catalog/index.js";
import { noMatchHelp } from "../../core/controls/index.js";

/** Where `toolsift search` took its tools from, for saying why nothing matched. */
export type SearchSource =
  | { kind: "catalog"; file: string }
  | { kind: "config"; file: string; exists: boolean };

/**
 * Why a non-blank `toolsift search` found nothing, as lines for a person: how many tools were searched and
 * where they came from, then either why there is nothing to search (no config file, no plugin, an empty
 * catalog file) with the fix, or the library's no-match hint (words no tool uses, near catalog words, a
 * script the catalog lacks).
 */
export function explainNoMatch(
  tools: readonly ToolDefinition[],
  query: string,
  source: SearchSource,
): string[] {
  const entries = tools.flatMap((tool): CatalogEntry[] => {
    const entry = toCatalogEntry(tool);
    return entry === undefined ? [] : [entry];
  });
  if (entries.length === 0) return [`No tools match: there are no tools to search. ${emptyReason(source)}`];
  const from = source.kind === "catalog" ? source.file : "the configured plugins";
  const count = `${entries.length} tool${entries.length === 1 ? "" : "s"}`;
  return [`No tools match (searched ${count} from ${from}).`, noMatchHelp(entries, query).hint];
}

function emptyReason(source: SearchSource): string {
  if (source.kind === "catalog") return `${source.file} lists no tools.`;
  if (!source.exists)
    return `There is no config file at ${source.file}, so no plugin is loaded: run toolsift init to start one with an example plugin, or search a file with --catalog FILE.`;
  return `${source.file} loads no plugin with tools (plugins.load.paths): add one, or search a file with --catalog FILE.`;
}
