import { isToolsiftError } from "../../shared/errors/index.js";
import type { Provider } from "../providers/index.js";

/**
 * What the last request to a provider says about it: `reachable` (it answered), `unreachable` (it failed for
 * good: down, timed out, refused the key, or answered an HTTP error), `unknown` (no request yet, or the last
 * one was cancelled by its caller and proved nothing).
 */
export type ProviderStatus = "reachable" | "unreachable" | "unknown";

/** Error codes a provider's own failure carries (not the caller's cancel, not a listener's bug). */
const PROVIDER_FAILURE_CODES: ReadonlySet<string> = new Set(["PROVIDER_FAILED", "PROVIDER_AUTH_FAILED"]);

/** The providers' statuses from their requests' outcomes; no probe is ever sent. */
export type ProviderStatusBoard = {
  /** `provider` with each request's outcome recorded under its id. */
  track(provider: Provider): Provider;
  /** Every configured provider's status (`unknown` until its first request), and any other tracked one. */
  snapshot(): Record<string, ProviderStatus>;
};

/** A board for the providers `configuredIds` names (the config's `models.providers` keys). */
export function createProviderStatusBoard(configuredIds: readonly string[]): ProviderStatusBoard {
  const statuses = new Map<string, ProviderStatus>(configuredIds.map((id) => [id, "unknown"]));
  return {
    track(provider) {
      if (!statuses.has(provider.id)) statuses.set(provider.id, "unknown");
      return {
        id: provider.id,
        async complete(request) {
          try {
            const response = await provider.complete(request);
            statuses.set(provider.id, "reachable");
            return response;
          } catch (error) {
            if (isToolsiftError(error) && PROVIDER_FAILURE_CODES.has(error.code))
              statuses.set(provider.id, "unreachable");
            throw error;
          }
        },
      };
    },
    snapshot() {
      return Object.fromEntries([...statuses].sort(([left], [right]) => (left < right ? -1 : 1)));
    },
  };
}
