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

/** Longest label kept from a tool definition (longer ones are cut, never rejected). */
export const MAX_LABEL_CHARS = 512;
/** Longest description kept from a tool definition. */
export const MAX_DESCRIPTION_CHARS = 8192;
