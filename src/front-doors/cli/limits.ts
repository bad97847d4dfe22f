/** Largest catalog file `search --catalog` reads; bigger files are refused before reading. */
export const MAX_CATALOG_FILE_BYTES = 64 * 1024 * 1024;

/** Longest received value quoted in a catalog-file message; longer ones are cut with "...". */
export const LONGEST_CATALOG_VALUE_SHOWN = 40;

/**
 * How long `toolsift gateway` may take to stop after a signal before the process exits anyway (exit 1): the
 * gateway's drain bound (30 s, GATEWAY_DRAIN_TIMEOUT_MS) plus the connection close grace (5 s) plus 5 s to
 * close the runner and flush telemetry; repeated here so that declaring the command loads no server code.
 */
export const GATEWAY_STOP_DEADLINE_MS = 40_000;

/** Sessions `toolsift sessions` lists without `--limit` (as `GET /v1/sessions` does). */
export const DEFAULT_SESSIONS_LISTED = 20;

/** Most sessions `toolsift sessions --limit` lists on one page. */
export const MAX_SESSIONS_LISTED = 100;
