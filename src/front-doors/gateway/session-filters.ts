import { type Caller, isAdminCaller } from "../../runtime/http-guard/index.js";
import {
  SESSION_STATUSES,
  type SessionContentQuery,
  type SessionStatus,
} from "../../runtime/sessions/index.js";
import { GatewayError, invalidRequest } from "./gateway-error.js";
import { MAX_SESSION_FILTER_CHARS } from "./limits.js";

/** The filters of a sessions listing as the request gives them (absent or empty: no filter). */
export type SessionFilterParams = {
  /** The last run's status: one of `SESSION_STATUSES`. */
  status?: string | undefined;
  /** Text the user's input or the model's output contains (case-insensitive), searched in the logs. */
  contains?: string | undefined;
  /** The key whose sessions to list: an admin's filter alone. */
  owner?: string | undefined;
};

/** What `listSessionsFor` takes from them: the owner, and the content query (bounded per page). */
export type SessionFilters = { owner?: string; content?: SessionContentQuery };

/**
 * Reads the sessions filters of `GET /v1/sessions` and the console's sessions page, with the same checks for
 * both: an unknown `status` is a 400 naming the statuses, a `contains` longer than `MAX_SESSION_FILTER_CHARS`
 * a 400, and `owner` from a key that is not an admin a 403 `insufficient_scope` (a key sees only its own
 * sessions anyway).
 */
export function readSessionFilters(caller: Caller, params: SessionFilterParams): SessionFilters {
  const status = present(params.status);
  const contains = present(params.contains);
  const owner = present(params.owner);
  const content: SessionContentQuery = {
    ...(status === undefined ? {} : { status: readStatusFilter(status) }),
    ...(contains === undefined ? {} : { text: readContainsFilter(contains) }),
  };
  return {
    ...(owner === undefined ? {} : { owner: readOwnerFilter(caller, owner) }),
    ...(status === undefined && contains === undefined ? {} : { content }),
  };
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** The owner filter: an admin's alone. */
function readOwnerFilter(caller: Caller, owner: string): string {
  if (!isAdminCaller(caller)) {
    throw new GatewayError(
      403,
      `filtering sessions by their owner key needs an admin key; key "${caller.keyId}" sees only its own sessions.`,
      { code: "insufficient_scope" },
    );
  }
  return owner;
}

/** The status filter: one of the statuses a session's last run can have. */
function readStatusFilter(status: string): SessionStatus {
  const known = SESSION_STATUSES.find((one) => one === status);
  if (known === undefined) {
    throw invalidRequest(
      "status",
      `status must be one of ${SESSION_STATUSES.join(", ")}; got ${JSON.stringify(status.slice(0, 40))}.`,
    );
  }
  return known;
}

/** The text filter: at most `MAX_SESSION_FILTER_CHARS` characters. */
function readContainsFilter(contains: string): string {
  if (contains.length > MAX_SESSION_FILTER_CHARS) {
    throw invalidRequest(
      "contains",
      `contains must be at most ${MAX_SESSION_FILTER_CHARS} characters (got ${contains.length}): search for a shorter part of the text.`,
    );
  }
  return contains;
}
