/** Host names every loopback-bound server answers to (any port, or none). */
export const LOOPBACK_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Longest piece of a client-sent header value quoted back in a refusal message or log line. */
export const MAX_QUOTED_HEADER_CHARS = 100;

/** How long a browser may cache a successful CORS preflight (`Access-Control-Max-Age`), in seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The one `Origin` value that is not a URL (sandboxed frames, `file:` pages); refused unless listed. */
export const NULL_ORIGIN = "null";

/** The answer to every refused bearer token: the same text whatever was wrong, and never the token. */
export const INVALID_TOKEN_MESSAGE = "Missing or invalid bearer token.";

/** The address a front door (the gateway, `mcp serve --http`) binds when none is given: loopback only. */
export const DEFAULT_BIND_HOST = "127.0.0.1";

/** The environment variable the docs and refusals suggest for the token (`gateway.auth.token: "env:…"`). */
export const TOKEN_VARIABLE = "TOOLSIFT_GATEWAY_TOKEN";
