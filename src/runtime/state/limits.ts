/**
 * How many response ids `previous_response_id` can still refer to in the in-memory store (one process); the
 * oldest are forgotten first.
 */
export const MAX_REMEMBERED_RESPONSES = 10_000;

/** Most bytes of response bodies the in-memory store keeps for `GET /v1/responses/:id` (oldest dropped first). */
export const MAX_STORED_RESPONSE_BYTES = 32 * 1024 * 1024;
