import { createHash } from "node:crypto";
import { isToolsiftError, messageOf, ToolsiftError } from "../../shared/errors/index.js";
import {
  CONSOLE_IDLE_MS,
  CONSOLE_MAX_AGE_MS,
  type ConsoleSessionStore,
  MAX_CONSOLE_SESSIONS,
  MAX_CONSOLE_SESSIONS_PER_KEY,
  MAX_PENDING_LOGINS,
  PENDING_LOGIN_MS,
  randomConsoleToken,
} from "../state/index.js";
import { CONSOLE_SESSION_LOCK_CLASS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { redactedUrl } from "./postgres-unavailable.js";

/** `ms` as an SQL interval (the constants of `state/limits.ts`, never input). */
function interval(ms: number): string {
  return `make_interval(secs => ${ms / 1000})`;
}

/** A session still live by the database's clock: waiting for a login, or signed in, within its times. */
const LIVE = `((key_id IS NULL AND created_at >= clock_timestamp() - ${interval(PENDING_LOGIN_MS)})
  OR (key_id IS NOT NULL AND last_seen_at >= clock_timestamp() - ${interval(CONSOLE_IDLE_MS)}
    AND created_at >= clock_timestamp() - ${interval(CONSOLE_MAX_AGE_MS)}))`;

const FORGET_EXPIRED_SQL = `DELETE FROM toolsift_console_sessions WHERE NOT ${LIVE}`;

/** Drops the oldest pages waiting for a login until one more fits. */
const BOUND_PENDING_SQL = `DELETE FROM toolsift_console_sessions WHERE id_digest IN (
  SELECT id_digest FROM toolsift_console_sessions WHERE key_id IS NULL
  ORDER BY created_at DESC, seq DESC OFFSET ${MAX_PENDING_LOGINS - 1})`;

/** Drops the key's ($1) least recently used sessions until one more fits. */
const BOUND_KEY_SQL = `DELETE FROM toolsift_console_sessions WHERE id_digest IN (
  SELECT id_digest FROM toolsift_console_sessions WHERE key_id = $1
  ORDER BY last_seen_at DESC, seq DESC OFFSET ${MAX_CONSOLE_SESSIONS_PER_KEY - 1})`;

/** Drops the least recently used signed-in sessions until one more fits. */
const BOUND_SIGNED_IN_SQL = `DELETE FROM toolsift_console_sessions WHERE id_digest IN (
  SELECT id_digest FROM toolsift_console_sessions WHERE key_id IS NOT NULL
  ORDER BY last_seen_at DESC, seq DESC OFFSET ${MAX_CONSOLE_SESSIONS - 1})`;

const INSERT_SQL = "INSERT INTO toolsift_console_sessions (id_digest, csrf, key_id) VALUES ($1, $2, $3)";

/** Marks a live session used and answers it. */
const FIND_SQL = `UPDATE toolsift_console_sessions SET last_seen_at = clock_timestamp()
WHERE id_digest = $1 AND ${LIVE} RETURNING csrf, key_id`;

/** Whether a live signed-in session has this digest, without marking it used. */
const IS_SIGNED_IN_SQL = `SELECT 1 FROM toolsift_console_sessions
WHERE id_digest = $1 AND key_id IS NOT NULL AND ${LIVE}`;

/** The SHA-256 digest of a session's id: what the table keeps in place of the id (the cookie's value). */
export function consoleSessionDigest(id: string): Buffer {
  return createHash("sha256").update(id, "utf8").digest();
}

/**
 * The ConsoleSessionStore on PostgreSQL (`toolsift_console_sessions`), shared by every gateway on the
 * database, so a browser is signed in on every gateway of a fleet. A row keeps the SHA-256 digest of the
 * session's id (a reader of the table cannot present it as a cookie), its CSRF token and the key's id; times
 * are the database's clock. An open runs in one transaction holding an advisory lock per kind (waiting or
 * signed in): expired sessions of the kind go, then the bounds drop the oldest (the key's own first), then
 * the row is inserted. `find` is one statement: only a live row answers, and it is marked used. A database
 * fault rejects with STORAGE_UNAVAILABLE.
 */
export function createPostgresConsoleSessionStore(db: PostgresPool): ConsoleSessionStore {
  const failure = (action: string, error: unknown): unknown =>
    isToolsiftError(error)
      ? error
      : new ToolsiftError(
          "INTERNAL",
          `Could not ${action} in the state database ${redactedUrl(db.url)}: ${messageOf(error)}. Check that its schema is current (\`toolsift state status\`, \`toolsift state migrate\`).`,
          { cause: error },
        );

  return {
    async open(keyId) {
      const action = "opening a console session";
      const record = { id: randomConsoleToken(), csrf: randomConsoleToken(), keyId };
      try {
        await db.transaction(action, async (client) => {
          await client.query("SELECT pg_advisory_xact_lock($1, $2)", [
            CONSOLE_SESSION_LOCK_CLASS,
            keyId === undefined ? 0 : 1,
          ]);
          await client.query(
            `${FORGET_EXPIRED_SQL} AND key_id IS ${keyId === undefined ? "NULL" : "NOT NULL"}`,
          );
          if (keyId === undefined) await client.query(BOUND_PENDING_SQL);
          else {
            await client.query(BOUND_KEY_SQL, [keyId]);
            await client.query(BOUND_SIGNED_IN_SQL);
          }
          await client.query(INSERT_SQL, [consoleSessionDigest(record.id), record.csrf, keyId ?? null]);
        });
      } catch (error) {
        throw failure(action, error);
      }
      return record;
    },

    async find(id) {
      if (id === undefined) return undefined;
      const action = "reading a console session";
      try {
        const result = await db.query<{ csrf: string; key_id: string | null }>(action, FIND_SQL, [
          consoleSessionDigest(id),
        ]);
        const row = result.rows[0];
        return row === undefined ? undefined : { id, csrf: row.csrf, keyId: row.key_id ?? undefined };
      } catch (error) {
        throw failure(action, error);
      }
    },

    async isSignedIn(id) {
      const action = "reading a console session";
      try {
        const result = await db.query(action, IS_SIGNED_IN_SQL, [consoleSessionDigest(id)]);
        return result.rows.length > 0;
      } catch (error) {
        throw failure(action, error);
      }
    },

    async close(id) {
      const action = "closing a console session";
      try {
        await db.query(action, "DELETE FROM toolsift_console_sessions WHERE id_digest = $1", [
          consoleSessionDigest(id),
        ]);
      } catch (error) {
        throw failure(action, error);
      }
    },
  };
}

/**
 * Removes console sessions expired by the database's clock (pruning; an open also removes the expired ones of
 * its kind, so the table stays within its bounds without a retention setting). Returns how many went.
 */
export async function forgetExpiredConsoleSessions(db: PostgresPool): Promise<number> {
  const result = await db.query("forgetting expired console sessions", FORGET_EXPIRED_SQL);
  return result.rowCount ?? 0;
}
