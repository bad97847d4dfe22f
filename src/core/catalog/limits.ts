/** Core coding primitives: kept visible while cataloged when the core provides them. */
export const CORE_PRIMITIVE_NAMES: ReadonlySet<string> = new Set([
  "read",
  "write",
  "edit",
  "exec",
  "process",
  "apply_patch",
]);

/** The names of the three Tool Search controls; never cataloged. */
export const CONTROL_NAMES: ReadonlySet<string> = new Set(["tool_search", "tool_describe", "tool_call"]);

/**
 * Most characters of all labels and descriptions of one snapshot together. Metadata is kept whole below it;
 * above it, the longest fields are cut to one common length so the total fits (bounded memory for hostile
 * metadata, without cutting ordinary fields).
 */
export const MAX_CATALOG_METADATA_CHARS = 4_000_000;

/** Tool sets whose built catalog is kept for later runs by default (`tools.catalogCacheSize`). */
export const DEFAULT_CATALOG_CACHE_SIZE = 16;
/** The largest `tools.catalogCacheSize` accepted. */
export const MAX_CATALOG_CACHE_SIZE = 1_024;
