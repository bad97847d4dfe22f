import { timingSafeEqual } from "node:crypto";
import type { Caller } from "../../runtime/http-guard/index.js";
import type { ConsoleSessionRecord } from "../../runtime/state/index.js";

/**
 * One browser's console session as a request sees it: the store's record (its id, CSRF token and key id),
 * and the caller the gateway's keys make of that key id now (undefined while it waits for a login).
 */
export type ConsoleSession = ConsoleSessionRecord & { readonly caller: Caller | undefined };

/** True when `sent` is the session's CSRF token, compared in constant time. */
export function csrfMatches(session: Pick<ConsoleSessionRecord, "csrf">, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(session.csrf, "utf8");
  const given = Buffer.from(sent, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
