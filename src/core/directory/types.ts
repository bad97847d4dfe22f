import type { CatalogEntry } from "../catalog/index.js";

/** How deferred tools are reached: only through `tool_call` (`tools`), or also directly by unique name (`directory`). */
export type ToolSearchMode = "tools" | "directory";

/** Options for renderDirectory. */
export interface DirectoryOptions {
  /** Every entry of the catalog snapshot, in id order. */
  entries: readonly CatalogEntry[];
  /** Names already visible to the model (visible-while-cataloged tools, direct-only tools): not listed. */
  visibleNames: ReadonlySet<string>;
  mode: ToolSearchMode;
  /** Maximum characters of the whole returned text. */
  budget: number;
}
