import { resolveStateUrl, type ToolsiftConfig } from "../../runtime/config/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import type { DoctorCheck } from "./types.js";

const NAME = "state-database";

/**
 * The state database `state.url` (or `TOOLSIFT_STATE_URL`) names, or the check that reports why the value is
 * unusable; undefined when none is set (state is in files: the state-dir check covers it). `config` is the
 * file with `env:` values resolved (`{}` when it could not be read).
 */
export function findStateUrl(
  config: unknown,
  raw: unknown,
  env: NodeJS.ProcessEnv,
): { url: string } | { check: DoctorCheck } | undefined {
  try {
    const url = resolveStateUrl({ config: stateOnly(config), raw, env });
    return url === undefined ? undefined : { url };
  } catch (error) {
    return {
      check: {
        name: NAME,
        status: "error",
        message: isToolsiftError(error) ? error.message : String(error),
        fix: "write state.url as postgresql://user:password@host:5432/database, or unset it and TOOLSIFT_STATE_URL",
      },
    };
  }
}

/**
 * Connects to the state database (one connection, the pool's connect timeout) and reads its schema version,
 * without writing or migrating anything: ok when current, warn when migrations are pending, error when it is
 * unreachable, refuses toolsift, or has a schema newer than this build. The password is never shown.
 */
export async function checkStateDatabase(url: string): Promise<DoctorCheck> {
  // Loaded only here, so a doctor run without a state database never loads the PostgreSQL client.
  const { openPostgresPool, readSchemaStatus, redactedUrl } = await import(
    "../../runtime/state-postgres/index.js"
  );
  const shown = redactedUrl(url);
  const db = openPostgresPool(url, { max: 1 });
  try {
    const status = await readSchemaStatus(db);
    if (status.version > status.known) {
      return {
        name: NAME,
        status: "error",
        message: `state database ${shown} has schema version ${status.version}, newer than this toolsift knows (${status.known}); this toolsift's gateway will not start on it`,
        fix: "upgrade toolsift on this machine to the version the rest of the fleet runs",
      };
    }
    if (status.pending.length > 0) {
      const count = status.pending.length;
      return {
        name: NAME,
        status: "warn",
        message: `state database ${shown} answers, schema version ${status.version}: ${count} pending migration${count === 1 ? "" : "s"} (${status.pending.join(", ")}) to reach ${status.known}`,
        fix: "a gateway applies them when it starts; toolsift state migrate applies them now",
      };
    }
    return {
      name: NAME,
      status: "ok",
      message: `state database ${shown} answers, schema version ${status.version} (up to date)`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      name: NAME,
      status: "error",
      message: isToolsiftError(error) ? reason : `state database ${shown} refused toolsift (${reason})`,
      fix: "check that PostgreSQL is running and reachable, and the role, password and database in state.url (or TOOLSIFT_STATE_URL); toolsift state status checks it",
    };
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** Only `state.url` of a config that may not have passed validation: anything but a string is ignored. */
function stateOnly(config: unknown): ToolsiftConfig {
  const state =
    typeof config === "object" && config !== null ? (config as { state?: unknown }).state : undefined;
  const url = typeof state === "object" && state !== null ? (state as { url?: unknown }).url : undefined;
  return typeof url === "string" ? { state: { url } } : {};
}
