import { configOptionText, type LoadedConfig, loadConfig } from "../../runtime/config/index.js";
import type { PostgresPool, SchemaStatus } from "../../runtime/state-postgres/index.js";
import { PRESENCE_TTL_MS } from "../../runtime/state-postgres/limits.js";
import { isToolsiftError, ToolsiftError } from "../../shared/errors/index.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift state status` and `toolsift state migrate`. */
export type StateOptions = { json?: boolean; config?: string };

/**
 * A gateway whose heartbeat is older than this is not counted as live by `state status`: the presence TTL
 * after which the fleet treats a gateway's runs as gone (limits.ts holds no driver code, so `pg` stays unloaded).
 */
const LIVE_GATEWAY_SECONDS = PRESENCE_TTL_MS / 1000;

/** What the state database holds, counted by `state status` once the schema exists. */
export interface StateCounts {
  sessions: number;
  storedResponses: number;
  /** Approvals neither decided nor expired. */
  pendingApprovals: number;
  /** Gateways with a heartbeat in the last LIVE_GATEWAY_SECONDS. */
  liveGateways: number;
}

/** What `state status --json` prints. */
export type StateStatusReport =
  | { store: "files"; stateDir: string }
  | { store: "postgresql"; url: string; schema: SchemaStatus; counts?: StateCounts };

const COUNTS_SQL = `SELECT
  (SELECT count(*) FROM toolsift_sessions) AS sessions,
  (SELECT count(*) FROM toolsift_responses) AS stored_responses,
  (SELECT count(*) FROM toolsift_approvals WHERE decision IS NULL AND expires_at > clock_timestamp()) AS pending_approvals,
  (SELECT count(*) FROM toolsift_gateways
     WHERE heartbeat_at > clock_timestamp() - make_interval(secs => $1)) AS live_gateways`;

/**
 * What `toolsift state status` does: without a state URL, says state is in files under the state directory;
 * with one, connects and prints the schema version, the version this build knows, the pending migrations
 * and (once the schema exists) the counts of sessions, stored responses, pending approvals and live
 * gateways. Fails (exit 1) when the database cannot be reached or its schema is newer than this build.
 */
export async function showStateStatus(options: StateOptions, io: CliIo): Promise<void> {
  const loaded = await loadStateConfig(options, io);
  if (loaded.stateUrl === undefined) {
    const report: StateStatusReport = { store: "files", stateDir: loaded.stateDir };
    io.stdout(
      options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : `State: files under ${loaded.stateDir} (sessions as JSONL files; stored responses and pending approvals in each gateway's memory).\nSet state.url (or TOOLSIFT_STATE_URL) to a postgresql:// URL to share state across a fleet of gateways.\n`,
    );
    return;
  }
  const url = loaded.stateUrl;
  const { readSchemaStatus, redactedUrl } = await loadPostgres();
  const report = await withPool(url, async (db) => {
    const schema = await readSchemaStatus(db);
    const counts = schema.version >= 1 ? await readCounts(db) : undefined;
    return {
      store: "postgresql",
      url: redactedUrl(url),
      schema,
      ...(counts === undefined ? {} : { counts }),
    } satisfies StateStatusReport;
  });
  io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report, options.config));
  if (report.schema.version > report.schema.known) throw newerSchema(report.schema);
}

/**
 * What `toolsift state migrate` does: applies the pending migrations to the state database and prints the
 * versions applied, or that it is up to date. A schema newer than this build is refused (exit 1); without a
 * state URL there is nothing to migrate.
 */
export async function migrateState(options: StateOptions, io: CliIo): Promise<void> {
  const loaded = await loadStateConfig(options, io);
  if (loaded.stateUrl === undefined) {
    io.stdout(
      `Nothing to migrate: state.url and TOOLSIFT_STATE_URL are unset, so state is in files under ${loaded.stateDir}.\n`,
    );
    return;
  }
  const url = loaded.stateUrl;
  const { migrateSchema, redactedUrl } = await loadPostgres();
  const { applied, status } = await withPool(url, migrateSchema);
  const shown = redactedUrl(url);
  io.stdout(
    applied.length === 0
      ? `State database ${shown} is up to date (schema version ${status.version}).\n`
      : `Applied migration${applied.length === 1 ? "" : "s"} ${applied.join(", ")} to ${shown}: schema version ${status.version}.\n`,
  );
}

/**
 * The config, with its warnings about `state.*` on stderr: a `state.url` naming an unset variable is why
 * state is in files, which the reader should see. Warnings name keys and variables, never values.
 */
async function loadStateConfig(options: StateOptions, io: CliIo): Promise<LoadedConfig> {
  const loaded = await loadConfig(options.config ? { configPath: options.config } : {});
  for (const warning of loaded.warnings) if (warning.startsWith("state.")) io.stderr(`config: ${warning}\n`);
  return loaded;
}

/** The PostgreSQL state store, loaded only when a state URL is set (the `pg` client costs every other run). */
function loadPostgres() {
  return import("../../runtime/state-postgres/index.js");
}

/** Opens a one-connection pool on `url`, runs `work`, and always ends the pool. */
async function withPool<T>(url: string, work: (db: PostgresPool) => Promise<T>): Promise<T> {
  const { openPostgresPool, redactedUrl } = await loadPostgres();
  const db = openPostgresPool(url, { max: 1 });
  try {
    return await work(db);
  } catch (error) {
    throw refusedBy(redactedUrl(url), error);
  } finally {
    await db.end().catch(() => undefined);
  }
}

async function readCounts(db: PostgresPool): Promise<StateCounts> {
  const result = await db.query<Record<string, string>>(
    "counting what the state database holds",
    COUNTS_SQL,
    [LIVE_GATEWAY_SECONDS],
  );
  const row = result.rows[0] ?? {};
  return {
    sessions: Number(row.sessions ?? 0),
    storedResponses: Number(row.stored_responses ?? 0),
    pendingApprovals: Number(row.pending_approvals ?? 0),
    liveGateways: Number(row.live_gateways ?? 0),
  };
}

function formatStatus(
  report: Extract<StateStatusReport, { store: "postgresql" }>,
  config: string | undefined,
): string {
  const { schema, counts } = report;
  const lines = [`State: PostgreSQL ${report.url}`];
  if (schema.version > schema.known) {
    lines.push(`Schema: version ${schema.version}, newer than this toolsift knows (${schema.known})`);
  } else if (schema.pending.length === 0) {
    lines.push(`Schema: version ${schema.version} (up to date)`);
  } else {
    lines.push(
      `Schema: version ${schema.version}; this toolsift knows ${schema.known}`,
      `Pending migrations: ${schema.pending.length} (version${schema.pending.length === 1 ? "" : "s"} ${schema.pending.join(", ")}): run toolsift state migrate${configOptionText(config)}, or start a gateway (it applies them)`,
    );
  }
  if (counts !== undefined) {
    lines.push(
      `Sessions: ${counts.sessions}`,
      `Stored responses: ${counts.storedResponses}`,
      `Pending approvals: ${counts.pendingApprovals}`,
      `Live gateways: ${counts.liveGateways} (heartbeat in the last ${LIVE_GATEWAY_SECONDS} s)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function newerSchema(schema: SchemaStatus): ToolsiftError {
  return new ToolsiftError(
    "CONFIG_INVALID",
    `The state database has schema version ${schema.version}, newer than this toolsift knows (${schema.known}): upgrade toolsift on this machine to the version the rest of the fleet runs.`,
  );
}

/**
 * A ToolsiftError passes as it is (it already names the database and the fix); any other database error (a
 * wrong password, a missing database or role) is told with the database named, its password hidden.
 */
function refusedBy(shownUrl: string, error: unknown): unknown {
  if (isToolsiftError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolsiftError(
    "STORAGE_UNAVAILABLE",
    `The state database ${shownUrl} refused toolsift (${reason}). Check the role, password and database name in state.url (or TOOLSIFT_STATE_URL), and that the role may connect and create tables.`,
    { cause: error },
  );
}
