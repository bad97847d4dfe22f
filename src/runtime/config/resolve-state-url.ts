import { ToolsiftError } from "../../shared/errors/index.js";
import type { ToolsiftConfig } from "./config-file-types.js";
import { readConfigPath } from "./config-path.js";
import { readEnvReference } from "./env-reference.js";
import { isPostgresUrl } from "./schema-fields.js";

/** The environment variable that names the state database when the config file does not. */
export const STATE_URL_VARIABLE = "TOOLSIFT_STATE_URL";

/** What a fix to a bad state URL looks like. */
const URL_SHAPE = "postgresql://user:password@host:5432/database";

/** Inputs of {@link resolveStateUrl}. */
export interface ResolveStateUrlOptions {
  /** The config with `env:NAME` values resolved. */
  config: ToolsiftConfig;
  /** The parsed file before resolution, to say which variable a bad value came from. Default: unknown. */
  raw?: unknown;
  /** Where `TOOLSIFT_STATE_URL` is read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The state database URL: the config's `state.url` (after `env:NAME` resolution) when it has one, else a
 * non-empty `TOOLSIFT_STATE_URL`, else undefined (state stays in files under `TOOLSIFT_STATE_DIR`). The
 * file's explicit value wins over the variable, as `telemetry.otlp.endpoint` wins over its variable. A value
 * that is not a `postgresql://` or `postgres://` URL is CONFIG_INVALID naming where it came from; the value
 * itself is never shown (it may hold a password).
 */
export function resolveStateUrl(options: ResolveStateUrlOptions): string | undefined {
  const env = options.env ?? process.env;
  const fromConfig = options.config.state?.url;
  if (fromConfig !== undefined) {
    if (!isPostgresUrl(fromConfig)) throw badStateUrl(configSource(options.raw), fromConfig);
    return fromConfig;
  }
  const fromEnv = env[STATE_URL_VARIABLE];
  if (fromEnv === undefined || fromEnv.trim() === "") return undefined;
  if (!isPostgresUrl(fromEnv)) throw badStateUrl(`environment variable ${STATE_URL_VARIABLE}`, fromEnv);
  return fromEnv;
}

/** `state.url`, or `state.url (from environment variable NAME)` when the file's value is a reference. */
function configSource(raw: unknown): string {
  const value = raw === undefined ? undefined : readConfigPath(raw, ["state", "url"]).value;
  const reference = typeof value === "string" ? readEnvReference(value) : undefined;
  return reference?.kind === "reference"
    ? `state.url (from environment variable ${reference.name})`
    : "state.url";
}

function badStateUrl(source: string, value: string): ToolsiftError {
  const scheme = URL.canParse(value) ? `, not ${new URL(value).protocol}//…` : " (it is not a URL)";
  return new ToolsiftError(
    "CONFIG_INVALID",
    `${source} must be a postgresql:// URL${scheme}: write it as ${URL_SHAPE}, or unset it to keep state in files under TOOLSIFT_STATE_DIR.`,
  );
}
