/** The one `Origin` value that is not a URL (sandboxed frames, `file:` pages); refused unless listed. */
const NULL_ORIGIN = "null";

/** `scheme://authority` and whatever follows the authority (path, query or fragment). */
const ORIGIN_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/su;

/** An origin read from a config entry or an `Origin` header: its normal form, or what is wrong with it. */
export type NormalisedOrigin = { origin: string } | { problem: string };

/**
 * The normal form of an origin, `scheme://host[:port]` lowercased, with the scheme's default port left out
 * (as browsers serialise it); `null` stays `null`. Anything else (another scheme, a path, a query, a user
 * name, no host) is a problem written for the operator who typed it.
 */
export function normaliseOrigin(value: string): NormalisedOrigin {
  if (value === NULL_ORIGIN) return { origin: NULL_ORIGIN };
  const shape = ORIGIN_SHAPE.exec(value);
  if (shape === null)
    return { problem: 'expected an origin such as "http://localhost:3000" (scheme://host[:port])' };
  const [, scheme = "", authority = "", rest = ""] = shape;
  const lowerScheme = scheme.toLowerCase();
  if (lowerScheme !== "http" && lowerScheme !== "https") {
    return { problem: `expected an http:// or https:// origin, not ${lowerScheme}://` };
  }
  if (rest.length > 0) {
    return {
      problem: `remove ${JSON.stringify(rest.slice(0, 40))}: an origin is scheme://host[:port], without a path, query or fragment`,
    };
  }
  if (authority.includes("@")) return { problem: "remove the user name: an origin is scheme://host[:port]" };
  if (authority.length === 0 || !URL.canParse(value)) {
    return { problem: 'expected a host after the scheme, e.g. "http://localhost:3000"' };
  }
  return { origin: new URL(value).origin };
}

/** What is wrong with a `gateway.cors.allowOrigins` entry, or `undefined` when it is a valid origin. */
export function describeOriginProblem(value: string): string | undefined {
  const normalised = normaliseOrigin(value);
  return "problem" in normalised ? normalised.problem : undefined;
}
