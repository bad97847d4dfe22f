import { normaliseOrigin } from "./normalise-origin.js";
import { quoteHeader } from "./quote-header.js";
import type { GuardVerdict } from "./types.js";

/**
 * The Origin check of a server's own pages (the gateway's console): no `Origin` (a navigation, curl) or the
 * server's own origin, `http://` or `https://` (behind a TLS proxy) with the `Host` the request was sent to.
 * Every other origin is a 403 `forbidden_origin`, listed CORS origins (`gateway.cors.allowOrigins`) included:
 * another site's page never reaches the console, whatever the API allows it.
 */
export function checkOwnOrigin(origin: string | undefined, host: string | undefined): GuardVerdict {
  if (origin === undefined) return undefined;
  const sent = normaliseOrigin(origin.trim());
  if (host !== undefined && "origin" in sent) {
    for (const scheme of ["http", "https"]) {
      const own = normaliseOrigin(`${scheme}://${host.trim()}`);
      if ("origin" in own && own.origin === sent.origin) return undefined;
    }
  }
  return {
    status: 403,
    code: "forbidden_origin",
    message: `Origin ${quoteHeader(origin)} is not allowed here: the console answers only its own pages (same origin).`,
  };
}
