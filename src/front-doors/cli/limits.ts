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

/**
 * How long `toolsift gateway` may take to stop after a signal before the process exits anyway (exit 1): the
 * gateway's drain bound (30 s, GATEWAY_DRAIN_TIMEOUT_MS) plus the connection close grace (5 s) plus 5 s to
 * close the runner and flush telemetry; repeated here so that declaring the command loads no server code.
 */
export const GATEWAY_STOP_DEADLINE_MS = 40_000;

/**
 * Default address of `mcp serve --http`: every front door's (`DEFAULT_BIND_HOST` in `src/runtime/http-guard`),
 * repeated so that declaring the command loads no server code (limits.test.ts keeps the two equal).
 */
export const DEFAULT_MCP_HTTP_HOST = "127.0.0.1";

/**
 * Default port of `toolsift mock-openai`, as its help shows it: mock-openai's DEFAULT_MOCK_CLI_PORT, repeated
 * so that declaring the command loads no server code (limits.test.ts keeps the two equal).
 */
export const MOCK_OPENAI_DEFAULT_PORT = 18_790;

/**
 * The agent of a bare session key, as the `sessions show` help shows it: the config's MAIN_AGENT_ID, repeated
 * so that declaring the command loads no config code (limits.test.ts keeps the two equal).
 */
export const MAIN_AGENT_ID_SHOWN = "main";

/** Sessions `toolsift sessions` lists without `--limit` (as `GET /v1/sessions` does). */
export const DEFAULT_SESSIONS_LISTED = 20;

/** Most sessions `toolsift sessions --limit` lists on one page. */
export const MAX_SESSIONS_LISTED = 100;
