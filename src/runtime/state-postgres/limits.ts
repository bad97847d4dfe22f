/** Most connections one process opens for queries (the LISTEN connection is one more). */
export const DEFAULT_POOL_SIZE = 10;
/** A statement running longer is cancelled by the server (`statement_timeout`). */
export const STATEMENT_TIMEOUT_MS = 10_000;
/** Opening a connection longer than this fails (the database is taken as unreachable). */
export const CONNECT_TIMEOUT_MS = 3_000;
/** An idle pooled connection is closed after this. */
export const IDLE_CONNECTION_MS = 30_000;
/** `/healthz` asks the database at most this often; answers in between are the last one. */
export const HEALTH_PROBE_CACHE_MS = 1_000;
/** Advisory lock key (any constant bigint) held while migrations run, so one gateway applies them. */
export const MIGRATION_LOCK_KEY = 7_214_032_659_101n;
/**
 * Most bytes of session lines one append statement carries: lines of one session queued behind a running
 * append go out together up to this (a single larger line still goes, alone).
 */
export const MAX_APPEND_BATCH_BYTES = 4 * 1024 * 1024;
/** Largest stored response body (its JSON text, UTF-8 bytes): a larger one keeps its origin but not its body. */
export const MAX_STORED_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;
/** Sessions removed per statement when pruning, so one statement (and its cascade) stays well inside the timeout. */
export const PRUNE_SESSIONS_PER_STATEMENT = 200;
/**
 * Sessions read per query while a page of sessions is filled (newest created first, from the page's cursor):
 * a page whose filter skips many sessions reads on in steps of this many rows.
 */
export const SESSION_PAGE_SCAN_ROWS = 500;
