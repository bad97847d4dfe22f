import { isToolsiftError, messageOf, ToolsiftError } from "../../shared/errors/index.js";
import type { ResponseOrigin, ResponseStore } from "../state/types.js";
import { MAX_STORED_RESPONSE_BODY_BYTES } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { redactedUrl } from "./postgres-unavailable.js";

/**
 * Remembering an id again replaces its origin and body (no body: the old one is dropped too, as the
 * in-memory registry does) and makes it the newest, for pruning by age.
 */
const REMEMBER_SQL = `INSERT INTO toolsift_responses (id, agent_id, session_key, body) VALUES ($1, $2, $3, $4)
ON CONFLICT (id) DO UPDATE
SET agent_id = EXCLUDED.agent_id, session_key = EXCLUDED.session_key, body = EXCLUDED.body,
  created_at = clock_timestamp()`;

/** The JSON text kept for `body`, or null when there is none, it is not JSON, or it is over the bound. */
function bodyText(body: unknown): string | null {
  if (body === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch {
    return null;
  }
  if (text === undefined) return null;
  return Buffer.byteLength(text, "utf8") <= MAX_STORED_RESPONSE_BODY_BYTES ? text : null;
}

/**
 * The ResponseStore on PostgreSQL (`toolsift_responses`), shared by every gateway on the database: which
 * agent and session produced each response id, and its body as JSON text (up to
 * MAX_STORED_RESPONSE_BODY_BYTES; a larger body keeps its origin, so follow-ups continue the session, but
 * `stored` answers undefined). `remember` resolves once the row is committed. Rows are removed by
 * prunePostgresState (with their session, or by age), never by count. A database fault rejects with
 * STORAGE_UNAVAILABLE.
 */
export function createPostgresResponseStore(db: PostgresPool): ResponseStore {
  const failure = (action: string, error: unknown): unknown =>
    isToolsiftError(error)
      ? error
      : new ToolsiftError(
          "INTERNAL",
          `Could not ${action} in the state database ${redactedUrl(db.url)}: ${messageOf(error)}. Check that its schema is current (\`toolsift state status\`, \`toolsift state migrate\`).`,
          { cause: error },
        );
  const one = async <Row extends object>(action: string, sql: string, responseId: string) => {
    // PostgreSQL text cannot hold NUL: such an id (a client's) was never stored.
    if (responseId.includes("\u0000")) return undefined;
    try {
      return (await db.query<Row & Record<string, unknown>>(action, sql, [responseId])).rows[0];
    } catch (error) {
      throw failure(action, error);
    }
  };

  return {
    async remember(responseId: string, origin: ResponseOrigin, body?: unknown) {
      const action = `remembering response ${responseId}`;
      if (responseId.includes("\u0000")) {
        throw new ToolsiftError(
          "INVALID_REQUEST",
          "A response id cannot hold a NUL character: use printable ids.",
        );
      }
      try {
        await db.query(action, REMEMBER_SQL, [responseId, origin.agentId, origin.sessionKey, bodyText(body)]);
      } catch (error) {
        throw failure(action, error);
      }
    },

    async lookup(responseId) {
      const row = await one<{ agent_id: string; session_key: string }>(
        `looking up response ${responseId}`,
        "SELECT agent_id, session_key FROM toolsift_responses WHERE id = $1",
        responseId,
      );
      return row === undefined ? undefined : { agentId: row.agent_id, sessionKey: row.session_key };
    },

    async stored(responseId) {
      const row = await one<{ body: string | null }>(
        `reading response ${responseId}`,
        "SELECT body FROM toolsift_responses WHERE id = $1",
        responseId,
      );
      if (row?.body == null) return undefined;
      // A fresh parse each time: callers may change what they get.
      try {
        return JSON.parse(row.body) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
