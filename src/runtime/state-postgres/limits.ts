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
/** The LISTEN connection retries after this long at first when it drops or cannot be opened… */
export const LISTEN_RETRY_MIN_MS = 100;
/** …doubling each failed attempt up to this, forever until closed. */
export const LISTEN_RETRY_MAX_MS = 2_000;
/** How often a gateway refreshes its `heartbeat_at` in toolsift_gateways. */
export const HEARTBEAT_MS = 1_000;
/** A gateway whose heartbeat is older than this (by the database's clock) is dead: its claims no longer count. */
export const PRESENCE_TTL_MS = 5_000;
/** Rows of gateways dead for longer than this are removed by any live gateway's heartbeat. */
export const DEAD_GATEWAY_FORGET_MS = 3_600_000;
/** Safety net for lost notifications: how often unsettled approvals published here are re-read. */
export const APPROVAL_RECHECK_MS = 3_000;
/** A run waiting for its session re-tries its claim this often even without a notification. */
export const RUN_QUEUE_POLL_MS = 500;
/** A run's release (ticket delete) that failed is retried this often until it succeeds or the queue closes. */
export const RUN_RELEASE_RETRY_MS = 1_000;
/** First key of the two-key advisory lock taken per session while admitting or claiming (any constant int4). */
export const RUN_QUEUE_LOCK_CLASS = 72_140_327;
/** Settled and expired approval requests are kept this long (for reads of their outcome), then removed. */
export const SETTLED_APPROVAL_KEEP_MS = 24 * 60 * 60 * 1000;
/**
 * First key of the two-key advisory lock taken while a console session is opened (second key: 0 for a page
 * waiting for a login, 1 for a signed-in session), so the bounds hold when gateways open sessions at once.
 */
export const CONSOLE_SESSION_LOCK_CLASS = 72_140_328;
/**
 * Key of the shared advisory lock a process holds on its LISTEN connection while it follows sessions live (a
 * console's live view is open): appends NOTIFY only while some process holds it (any constant int4 pair).
 */
export const SESSION_WATCH_LOCK: readonly [number, number] = [72_140_329, 0];
/** How old a store's answer to "does any process follow sessions live?" may be before it asks again. */
export const SESSION_WATCH_CHECK_MS = 1_000;
