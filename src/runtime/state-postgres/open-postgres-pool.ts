import pg from "pg";
import { ToolsiftError } from "../../shared/errors/index.js";
import { CONNECT_TIMEOUT_MS, DEFAULT_POOL_SIZE, IDLE_CONNECTION_MS, STATEMENT_TIMEOUT_MS } from "./limits.js";
import { isPostgresUnavailable, postgresUnavailable, redactedUrl } from "./postgres-unavailable.js";

/** A bounded connection pool on the state database, with the statement timeout set on every connection. */
export interface PostgresPool {
  readonly url: string;
  readonly pool: pg.Pool;
  /** Runs one statement; a database fault becomes STORAGE_UNAVAILABLE naming `action`. */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    action: string,
    text: string,
    values?: readonly unknown[],
  ): Promise<pg.QueryResult<Row>>;
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(action: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

/** Options of openPostgresPool. */
export interface PostgresPoolOptions {
  /** Most connections. Default 10 (`DEFAULT_POOL_SIZE`). */
  max?: number;
  /** The server cancels a statement running longer. Default 10 s (`STATEMENT_TIMEOUT_MS`). */
  statementTimeoutMs?: number;
  /** Told about errors of idle connections (the database went away between queries). */
  onIdleError?(error: Error): void;
}

/** Refuses what is not a `postgres://` or `postgresql://` URL, naming the setting. */
export function checkStateUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "state.url (or TOOLSIFT_STATE_URL) is not a URL: write it as postgresql://user:password@host:5432/database.",
    );
  }
  if (parsed.protocol !== "postgresql:" && parsed.protocol !== "postgres:") {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `state.url (or TOOLSIFT_STATE_URL) must be a postgresql:// URL, not ${parsed.protocol}//…: unset it to keep state in files under TOOLSIFT_STATE_DIR.`,
    );
  }
}

/**
 * Opens a pool on `url` (nothing connects until the first query): at most `max` connections, each opened
 * within CONNECT_TIMEOUT_MS and with `statement_timeout` STATEMENT_TIMEOUT_MS, idle ones closed after
 * IDLE_CONNECTION_MS. An idle connection's error is reported, never thrown (the pool replaces it).
 */
export function openPostgresPool(url: string, options: PostgresPoolOptions = {}): PostgresPool {
  checkStateUrl(url);
  const statementTimeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    statement_timeout: statementTimeoutMs,
    // The client gives up a little after the server would have cancelled the statement.
    query_timeout: statementTimeoutMs + CONNECT_TIMEOUT_MS,
    application_name: "toolsift",
  });
  pool.on("error", (error) => {
    try {
      options.onIdleError?.(error);
    } catch {
      // A failing reporter must not take the process down.
    }
  });
  const fault = (action: string, error: unknown): unknown =>
    isPostgresUnavailable(error) ? postgresUnavailable(url, action, error) : error;
  return {
    url,
    pool,
    async query(action, text, values) {
      try {
        return await pool.query(text, values as unknown[] | undefined);
      } catch (error) {
        throw fault(action, error);
      }
    },
    async transaction(action, work) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw fault(action, error);
      }
      let broken = false;
      // A connection the server ends while it is checked out (a restart, an admin's terminate) emits
      // `error` outside any query: without a listener that would take the process down. The statement
      // in flight fails on its own; the connection is then discarded.
      const onLost = (): void => {
        broken = true;
      };
      client.on("error", onLost);
      try {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        broken ||= isPostgresUnavailable(error);
        if (!broken) await client.query("ROLLBACK").catch(() => undefined);
        throw fault(action, error);
      } finally {
        client.off("error", onLost);
        // A connection that failed mid-transaction is discarded, never handed to the next query.
        client.release(broken ? true : undefined);
      }
    },
    end: () => pool.end(),
  };
}

export { redactedUrl };
