import { quoteHeader } from "./quote-header.js";
import type { GuardVerdict } from "./types.js";

/** `type/subtype` of a JSON media type: `application/json`, or any `type/subtype+json`. */
const JSON_MEDIA_TYPE = /^(?:application\/json|[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json)$/u;

/**
 * True when a `Content-Type` value names JSON: `application/json` or `*\/*+json`, case-insensitive, with
 * any parameters (`; charset=utf-8`). `text/plain`, form types and a missing header are not JSON.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return JSON_MEDIA_TYPE.test(mediaType);
}

/**
 * Refuses a request body that does not declare JSON with 415 `unsupported_media_type`. Browsers send
 * `text/plain`, form and multipart bodies cross-site without a preflight; a JSON type needs one, so
 * reading only declared JSON keeps "simple" cross-site requests from running anything.
 */
export function checkJsonContentType(contentType: string | undefined): GuardVerdict {
  if (isJsonContentType(contentType)) return undefined;
  const got = contentType === undefined ? "no Content-Type" : `Content-Type ${quoteHeader(contentType)}`;
  return {
    status: 415,
    code: "unsupported_media_type",
    message: `the request body must be JSON: send Content-Type: application/json (got ${got}).`,
  };
}
