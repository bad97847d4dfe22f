import { safeRead } from "../../shared/schema/index.js";
import { type CatalogSnapshot, createCatalogSnapshot } from "./catalog-snapshot.js";
import { CONTROL_NAMES, CORE_PRIMITIVE_NAMES } from "./limits.js";
import { toCatalogEntry } from "./to-catalog-entry.js";
import type { CatalogEntry, ToolDefinition } from "./types.js";

/** A tool the catalog could not take, and why (for logs and `doctor`, never for the prompt). */
export type RejectedTool = { index: number; reason: string };

/** The catalog of one run: cataloged entries, the direct-only tools beside it, and what was refused. */
export interface CatalogBuild {
  readonly snapshot: CatalogSnapshot;
  /** Tools declared `catalogMode: "direct-only"`: always visible, never cataloged. */
  readonly directOnly: readonly ToolDefinition[];
  readonly rejected: readonly RejectedTool[];
}

/**
 * Splits admitted tools into the catalog and the direct-only tools. The controls' own names are never
 * cataloged; a definition without a name or `execute` is refused, never fatal. `entryOf` reads a
 * definition's entry (default `toCatalogEntry`; the shared catalog passes one that remembers entries).
 */
export function buildCatalog(
  tools: readonly ToolDefinition[],
  entryOf: (tool: ToolDefinition) => CatalogEntry | undefined = toCatalogEntry,
): CatalogBuild {
  const entries: CatalogEntry[] = [];
  const directOnly: ToolDefinition[] = [];
  const rejected: RejectedTool[] = [];
  tools.forEach((tool, index) => {
    const entry = entryOf(tool);
    if (!entry) {
      rejected.push({ index, reason: "tool has no string name or no execute function" });
      return;
    }
    if (CONTROL_NAMES.has(entry.name)) {
      rejected.push({ index, reason: `"${entry.name}" is reserved for a Tool Search control` });
      return;
    }
    if (safeRead(tool, "catalogMode") === "direct-only") directOnly.push(tool);
    else entries.push(entry);
  });
  return { snapshot: createCatalogSnapshot(entries), directOnly, rejected };
}

/**
 * Entries that stay in the model's tool list while cataloged: core coding primitives provided by the core,
 * `native` tools named (by name or id) in `directToolNames` whose name no other entry shares, and tools the
 * operator pinned (`pinned`). An MCP or client look-alike is never promoted by name.
 */
export function visibleWhileCataloged(
  snapshot: CatalogSnapshot,
  directToolNames: ReadonlySet<string>,
): CatalogEntry[] {
  return snapshot.entries.filter((entry) => {
    if (entry.pinned) return true;
    if (entry.source !== "native") return false;
    if (entry.fromCore && CORE_PRIMITIVE_NAMES.has(entry.name)) return true;
    const named = directToolNames.has(entry.name) || directToolNames.has(entry.id);
    return named && snapshot.withName(entry.name).length === 1;
  });
}
