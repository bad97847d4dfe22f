/** How one doctor check came out: `fixed` only with `--fix`, for a problem it repaired. */
export type DoctorStatus = "ok" | "warn" | "error" | "fixed";

/** One finding. Checks about several things (providers, MCP servers, plugins) give one finding each. */
export interface DoctorCheck {
  /** What was checked: `config`, `retired-keys`, `state-dir`, `state-database`, `providers`, `mcp-servers`, `plugins`, `policy`. */
  name: string;
  status: DoctorStatus;
  /** One line, naming the key, file or item concerned. */
  message: string;
  /** Further lines, e.g. every `path: reason` problem of the file. */
  details?: string[];
  /** What to do about it, e.g. `toolsift doctor --fix`. */
  fix?: string;
}

/** Inputs of runDoctor. */
export interface DoctorOptions {
  /** The `--config` value. Default: `TOOLSIFT_CONFIG`, else `$TOOLSIFT_HOME/toolsift.json`. */
  configPath?: string;
  /** Environment for paths, `env:NAME` values, provider keys and PATH. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Migrate retired keys in place (backup first). Default `false`: doctor changes nothing. */
  fix?: boolean;
}

/** Everything doctor found. */
export interface DoctorReport {
  /** Absolute path of the config file checked. */
  configPath: string;
  /** Absolute path of the state directory checked. */
  stateDir: string;
  checks: DoctorCheck[];
  /** True when no check is an error. */
  ok: boolean;
  /** With `--fix`: where the old file was copied before it was rewritten. */
  backupPath?: string;
}
