import { MAX_QUOTED_HEADER_CHARS } from "./limits.js";

/** A client-sent header value as a JSON string, cut to MAX_QUOTED_HEADER_CHARS: safe in messages and logs. */
export function quoteHeader(value: string): string {
  const cut = value.length > MAX_QUOTED_HEADER_CHARS ? `${value.slice(0, MAX_QUOTED_HEADER_CHARS)}…` : value;
  return JSON.stringify(cut);
}
