import { ToolsiftError } from "../../shared/errors/index.js";
import { normaliseOrigin } from "./normalise-origin.js";
import { quoteHeader } from "./quote-header.js";
import type { GuardRefusal } from "./types.js";

/** The answer about a request's `Origin`: none sent, a listed one (to echo in CORS headers), or a refusal. */
export type OriginVerdict = { kind: "none" } | { kind: "allowed"; origin: string } | GuardRefusal;

/**
 * A check of `Origin` headers against the listed origins (`gateway.cors.allowOrigins`), compared in their
 * normal form, so case and a spelled-out default port do not matter. No header (curl, SDKs) passes; any other
 * origin, `null` included unless listed, is a 403 `forbidden_origin`. A malformed entry throws CONFIG_INVALID.
 */
export function createOriginCheck(
  allowOrigins: readonly string[] = [],
): (origin: string | undefined) => OriginVerdict {
  const allowed = new Set<string>();
  for (const [index, entry] of allowOrigins.entries()) {
    const normalised = normaliseOrigin(entry);
    if ("problem" in normalised) {
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `gateway.cors.allowOrigins[${index}] ${quoteHeader(entry)}: ${normalised.problem}.`,
      );
    }
    allowed.add(normalised.origin);
  }
  return (origin) => {
    if (origin === undefined) return { kind: "none" };
    const normalised = normaliseOrigin(origin.trim());
    if ("origin" in normalised && allowed.has(normalised.origin)) {
      return { kind: "allowed", origin: normalised.origin };
    }
    return {
      status: 403,
      code: "forbidden_origin",
      message:
        `Origin ${quoteHeader(origin)} is not allowed: a web page may call this server only from an origin ` +
        "listed in gateway.cors.allowOrigins (clients that send no Origin, such as curl and SDKs, need no entry).",
    };
  };
}
