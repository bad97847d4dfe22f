/** Exit code of a successful command (zero results included). */
export const EXIT_SUCCESS = 0;
/** Exit code of a failed command: unreadable or invalid input, a failing operation. */
export const EXIT_FAILURE = 1;
/** Exit code of a usage error: unknown option, missing or malformed argument. */
export const EXIT_USAGE = 2;

/** Largest catalog file `search --catalog` reads; bigger files are refused before reading. */
export const MAX_CATALOG_FILE_BYTES = 64 * 1024 * 1024;

/** Longest description line in the text output of `search` (the JSON output keeps descriptions whole). */
export const MAX_DESCRIPTION_LINE_CHARS = 180;

/** Owner of MCP tools loaded from a file whose base name yields no usable owner. */
export const DEFAULT_MCP_OWNER = "mcp";

/** Longest received value quoted in a catalog-file message; longer ones are cut with "...". */
export const LONGEST_SHOWN_VALUE = 40;
