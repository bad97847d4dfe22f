/** Longest a plugin's import plus `register(api)` may take before it is reported and skipped (10 s). */
export const PLUGIN_REGISTER_TIMEOUT_MS = 10_000;

/** Longest one `before_tool_call` or `before_prompt` hook may take (30 s); a late hook counts as failed. */
export const PLUGIN_HOOK_TIMEOUT_MS = 30_000;

/** Largest manifest file read (256 KiB); a bigger one is refused. */
export const MAX_MANIFEST_BYTES = 262_144;

/** Most tool names one manifest may declare. */
export const MAX_PLUGIN_TOOLS = 1_000;

/** Longest message kept from a plugin (log lines, thrown errors, block reasons from failures). */
export const MAX_PLUGIN_MESSAGE_CHARS = 2_000;

/** Most validation problems listed in one manifest or config error. */
export const MAX_LISTED_PLUGIN_PROBLEMS = 8;
