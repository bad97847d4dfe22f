/** Longest piece of a client-sent header value quoted back in a refusal message or log line. */
export const MAX_QUOTED_HEADER_CHARS = 100;
