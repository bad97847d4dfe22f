/** Largest request body the gateway reads (1 MiB); bigger bodies get 413. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Longest function (client tool) name, as in the OpenAI API. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Most client tools one request may declare. */
export const MAX_CLIENT_TOOLS = 512;

/** Most input items (or chat messages) one request may carry. */
export const MAX_INPUT_ITEMS = 4096;

/** Longest run error message passed on to the client; longer ones are cut. */
export const MAX_ERROR_MESSAGE_CHARS = 2000;

/** Bound on draining in-flight runs when the gateway stops (SIGTERM): 30 s. */
export const GATEWAY_DRAIN_TIMEOUT_MS = 30_000;

/** Largest body of an approval decision (`POST /v1/approvals/:id`): 16 KiB. */
export const MAX_APPROVAL_BODY_BYTES = 16 * 1024;

/** Default most runs waiting behind a session's running run (`gateway.maxQueuedPerSession`); more get 429. */
export const DEFAULT_MAX_QUEUED_PER_SESSION = 8;
/**
 * How many branch sessions a request with resent history may be followed through (`queue-run.ts`): one per
 * edit of an earlier part of one conversation; past it the request stays on the last branch reached.
 */
export const MAX_BRANCH_HOPS = 8;

/** Deepest nesting of arrays and objects accepted anywhere in a request body; deeper bodies get 400. */
export const MAX_JSON_DEPTH = 64;

/** Most characters of a client's bad value quoted back in an error message; longer values are cut. */
export const MAX_QUOTED_VALUE_CHARS = 200;

/**
 * Agent and hosted-tool-type pairs the gateway remembers having logged (one line each); past it the pair
 * logged longest ago is forgotten, so a client inventing tool types cannot grow it.
 */
export const MAX_REPORTED_HOSTED_TOOL_TYPES = 1_024;

/** Most sessions on one page of `GET /v1/sessions` (OpenAI's list maximum). */
export const MAX_SESSION_PAGE_LIMIT = 100;

/**
 * How often a console chat re-reads its session's pending approvals while a call runs and nothing woke it
 * (the broker's `onChange` wakes it for every approval published or settled here, and for settlements a shared
 * ledger announces): a safety net for a change no announcement reached, at most one read per 2 s per chat.
 */
export const CHAT_APPROVALS_REREAD_MS = 2_000;

/** Longest `contains` text of a sessions listing, in characters (the console's filter is cut to the same). */
export const MAX_SESSION_FILTER_CHARS = 200;
