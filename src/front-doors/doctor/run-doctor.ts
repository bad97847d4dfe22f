import { dirname } from "node:path";
import { MIGRATION_COMMAND } from "../../core/tool-search/index.js";
import {
  type ConfigIssue,
  configOptionText,
  NOTHING_CHANGED,
  parseConfigText,
  resolveConfigPaths,
  resolveEnvReferences,
  validateConfig,
} from "../../runtime/config/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { editConfigFile, readConfigSource } from "../config-editor/index.js";
import { checkGatewayAuth } from "./check-gateway-auth.js";
import { checkMcpServers } from "./check-mcp-servers.js";
import { checkPlugins } from "./check-plugins.js";
import { checkPolicy } from "./check-policy.js";
import { checkProviders } from "./check-providers.js";
import { checkStateDatabase, findStateUrl } from "./check-state-database.js";
import { checkStateDir } from "./check-state-dir.js";
import { type MigrationPlan, planMigration } from "./plan-migration.js";
import type { DoctorCheck, DoctorOptions, DoctorReport } from "./types.js";

const NEEDS_CONFIG = ["providers", "mcp-servers", "plugins", "policy", "gateway-auth"] as const;
const UNREAD = "not checked: the config file could not be read";

/**
 * Diagnoses a toolsift installation: the config file parses and validates, retired keys (with `fix`: migrated
 * in place after a backup), the state directory is writable, providers have keys, MCP server commands exist,
 * plugins load, policy selectors can match. Only `fix` writes anything (the migrated file and its backup);
 * the state check's probe file is removed at once. With a state database (`state.url`), it is asked its schema
 * version (read only, never migrated). Never throws for a bad installation: every problem is a
 * check in the report.
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const paths = resolveConfigPaths({
    ...(options.configPath === undefined ? {} : { configPath: options.configPath }),
    env,
  });
  const file = paths.configPath;
  // Fix hints name the same --config the user passed, so they can be run as printed.
  const option = configOptionText(paths.configSource === "option" ? options.configPath : undefined);
  const hints: Hints = {
    migrate: `${MIGRATION_COMMAND}${option}`,
    set: `toolsift config set${option} <path> <value>`,
    unset: `toolsift config unset${option} <path>`,
  };
  const checks: DoctorCheck[] = [];
  let backupPath: string | undefined;

  const read = await readRaw(file);
  let raw = read.raw;
  if ("failure" in read) {
    checks.push(read.failure, { name: "retired-keys", status: "warn", message: UNREAD });
  } else {
    const plan = planMigration(raw);
    let migrated: DoctorCheck[] | undefined;
    if (options.fix === true && plan.edits.length > 0) {
      const outcome = await migrate(file, plan);
      if ("failure" in outcome) checks.push(...outcome.failure);
      else {
        raw = outcome.raw;
        backupPath = outcome.backupPath;
        migrated = plan.changes.map((change) => ({ name: "retired-keys", status: "fixed", message: change }));
      }
    }
    const retiredPaths = migrated === undefined ? plan.retired.map((key) => key.path) : [];
    const config = { path: file, exists: read.exists, source: paths.configSource, given: options.configPath };
    checks.push(configCheck(config, validateConfig(raw), retiredPaths, hints));
    checks.push(...(migrated ?? retiredChecks(plan, hints)));
  }

  checks.push(await checkStateDir(paths.stateDir));
  const database = findStateUrl(resolvedOrEmpty(raw, env), raw, env);
  if (database !== undefined)
    checks.push("check" in database ? database.check : await checkStateDatabase(database.url));

  if (raw === undefined) {
    for (const name of NEEDS_CONFIG) {
      checks.push({ name, status: "warn", message: UNREAD });
    }
  } else {
    checks.push(...(await configDependentChecks(raw, { env, configDir: dirname(file) })));
  }

  return {
    configPath: file,
    stateDir: paths.stateDir,
    checks,
    ok: !checks.some((check) => check.status === "error"),
    ...(backupPath === undefined ? {} : { backupPath }),
  };
}

/** The commands a fix hint names, with `--config <file>` when the user gave one. */
type Hints = { migrate: string; set: string; unset: string };

type ReadOutcome = { raw: unknown; exists: boolean } | { raw: undefined; failure: DoctorCheck };

/** The parsed file (`{}` when missing), or the check that reports why it cannot be read or parsed. */
async function readRaw(file: string): Promise<ReadOutcome> {
  try {
    const source = await readConfigSource(file);
    if (source.text === undefined) return { raw: {}, exists: false };
    return { raw: parseConfigText(source.text, file), exists: true };
  } catch (error) {
    const [message = "the config file could not be read", ...rest] = errorText(error).split("\n");
    const details = rest.filter((line) => line !== NOTHING_CHANGED);
    return {
      raw: undefined,
      failure: { name: "config", status: "error", message, ...(details.length > 0 ? { details } : {}) },
    };
  }
}

/**
 * The `config` check: valid (or missing), or every problem other than the retired keys (reported on their own).
 * A missing default file means the defaults; one named by --config or TOOLSIFT_CONFIG is an error, as every
 * other command refuses it.
 */
function configCheck(
  file: { path: string; exists: boolean; source: "option" | "env" | "default"; given: string | undefined },
  issues: readonly ConfigIssue[],
  retiredPaths: readonly string[],
  hints: Hints,
): DoctorCheck {
  if (!file.exists && file.source !== "default") {
    const namedBy = file.source === "option" ? "--config" : "TOOLSIFT_CONFIG";
    const unset = file.source === "env" ? ", unset TOOLSIFT_CONFIG," : ",";
    return {
      name: "config",
      status: "error",
      message: `config file ${file.path} does not exist (named by ${namedBy}): every command refuses it`,
      fix: `check the path${unset} or start the file with ${hints.set}`,
    };
  }
  if (!file.exists) {
    return { name: "config", status: "ok", message: `no config file at ${file.path}; the defaults apply` };
  }
  const problems = issues.filter((issue) => !retiredPaths.includes(issue.path));
  if (problems.length === 0) {
    const apart = issues.length > 0 ? " apart from its retired keys" : "";
    return { name: "config", status: "ok", message: `${file.path} is valid${apart}` };
  }
  return {
    name: "config",
    status: "error",
    message: `${file.path} has ${problems.length} problem${problems.length === 1 ? "" : "s"}; the gateway will not start with it`,
    details: problems.map((issue) => `${issue.path}: ${withHints(issue.message, hints)}`),
    fix: `edit the file, or use ${hints.set} / ${hints.unset}`,
  };
}

function retiredChecks(plan: MigrationPlan, hints: Hints): DoctorCheck[] {
  if (plan.retired.length === 0) return [{ name: "retired-keys", status: "ok", message: "no retired keys" }];
  return plan.retired.map((key) => ({
    name: "retired-keys",
    status: "error",
    message: withHints(key.message, hints),
    fix: hints.migrate,
  }));
}

/** A message that names the migration command names it with the user's --config. */
function withHints(message: string, hints: Hints): string {
  return message.replaceAll(MIGRATION_COMMAND, hints.migrate);
}

async function migrate(
  file: string,
  plan: MigrationPlan,
): Promise<{ raw: unknown; backupPath: string | undefined } | { failure: DoctorCheck[] }> {
  try {
    const result = await editConfigFile({ file, edits: plan.edits, backup: true });
    return { raw: result.value, backupPath: result.backupPath };
  } catch (error) {
    return {
      failure: plan.retired.map((key) => ({
        name: "retired-keys",
        status: "error",
        message: `${key.path}: could not be migrated: ${errorText(error).split("\n").join(" ")}`,
        fix: "edit the file by hand: see config.md, Retired: Tool Search code mode",
      })),
    };
  }
}

async function configDependentChecks(
  raw: unknown,
  options: { env: NodeJS.ProcessEnv; configDir: string },
): Promise<DoctorCheck[]> {
  let resolved: { config: unknown; warnings: string[] };
  try {
    resolved = resolveEnvReferences(raw, options.env);
  } catch (error) {
    return NEEDS_CONFIG.map((name) => ({
      name,
      status: "warn",
      message: `not checked: ${errorText(error)}`,
    }));
  }
  const checks: DoctorCheck[] = resolved.warnings.map((warning) => ({
    name: "config",
    status: "warn",
    message: warning,
  }));
  const guarded = async (name: string, run: () => DoctorCheck[] | Promise<DoctorCheck[]>) => {
    try {
      checks.push(...(await run()));
    } catch (error) {
      checks.push({ name, status: "error", message: `the check failed: ${errorText(error)}` });
    }
  };
  await guarded("providers", () => checkProviders(resolved.config, options.env, resolved.warnings));
  await guarded("mcp-servers", () => checkMcpServers(resolved.config, options));
  await guarded("plugins", () => checkPlugins(resolved.config, options.configDir));
  await guarded("policy", () => checkPolicy(resolved.config));
  await guarded("gateway-auth", () => checkGatewayAuth(resolved.config));
  return checks;
}

/** The file with `env:` values resolved, or `{}` when it could not be read or resolved. */
function resolvedOrEmpty(raw: unknown, env: NodeJS.ProcessEnv): unknown {
  if (raw === undefined) return {};
  try {
    return resolveEnvReferences(raw, env).config;
  } catch {
    return {};
  }
}

function errorText(error: unknown): string {
  return isToolsiftError(error) || error instanceof Error ? error.message : String(error);
}
