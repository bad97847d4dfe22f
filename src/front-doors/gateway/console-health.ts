import { dirname } from "node:path";
import type { LoadedConfig } from "../../runtime/config/index.js";
import { type Caller, isAdminCaller } from "../../runtime/http-guard/index.js";
import type { McpToolSource } from "../../runtime/mcp-client/index.js";
import {
  checkGatewayAuth,
  checkMcpServers,
  checkPolicy,
  checkProviders,
  checkStateDatabase,
  checkStateDir,
  type DoctorCheck,
} from "../doctor/index.js";

/** The doctor's checks are run again at most this often, however often the Health page asks: 10 s. */
const HEALTH_CHECKS_TTL_MS = 10_000;

/**
 * What a running gateway knows beyond its routes, for the console's Health page: the config it started from
 * (the doctor's checks read it) and its upstream MCP servers.
 */
export type GatewayDiagnostics = {
  /** The config as loaded at start (`env:` values resolved), its path, state directory and warnings. */
  loaded: LoadedConfig;
  /** The variables the config was resolved with (provider keys, the PATH MCP commands are found on). */
  env: NodeJS.ProcessEnv;
  /** The upstream MCP servers of `mcp.servers`, as they are now. */
  mcp: Pick<McpToolSource, "status">;
};

/** One MCP server as the Health page shows it; `error` only for an admin. */
type ShownServer = { name: string; status: string; tools: number; error?: string };

/** One doctor check as the Health page shows it: the status for every key, the words only for an admin. */
type ShownCheck = { name: string; status: DoctorCheck["status"] } & Partial<
  Pick<DoctorCheck, "message" | "details" | "fix">
>;

/**
 * The Health page's second half: each configured MCP server (status, tool count, last error) and the
 * doctor's own checks (`src/front-doors/doctor`) that mean something for a running gateway: config warnings,
 * the state directory or database, providers and their client packages, MCP server commands and URLs, policy
 * selectors, who may approve. Plugins are not loaded again (that would run their code a second time; the
 * gateway log says what loaded). The checks run at most once per HEALTH_CHECKS_TTL_MS. An admin sees every
 * message, detail, fix and server error; another key sees the statuses (as `/healthz` keeps reasons to admins).
 */
export function createHealthChecks(
  diagnostics: GatewayDiagnostics | undefined,
  now: () => number = Date.now,
): (caller: Caller) => Promise<unknown> {
  let cached: { at: number; checks: Promise<DoctorCheck[]> } | undefined;
  const checks = (): Promise<DoctorCheck[]> => {
    if (diagnostics === undefined) return Promise.resolve([]);
    if (cached === undefined || now() - cached.at > HEALTH_CHECKS_TTL_MS) {
      cached = { at: now(), checks: runningGatewayChecks(diagnostics) };
    }
    return cached.checks;
  };
  return async (caller) => {
    const admin = isAdminCaller(caller);
    const servers = (diagnostics?.mcp.status() ?? []).map(
      (server): ShownServer => ({
        name: server.name,
        status: server.status,
        tools: server.tools,
        ...(admin && server.error !== undefined ? { error: server.error } : {}),
      }),
    );
    const shown = (await checks()).map(
      (check): ShownCheck =>
        admin
          ? check
          : {
              name: check.name,
              status: check.status,
            },
    );
    return { available: diagnostics !== undefined, servers, checks: shown, details: admin };
  };
}

/** The doctor's checks for the config this gateway runs on; a check that throws is one error finding. */
async function runningGatewayChecks(diagnostics: GatewayDiagnostics): Promise<DoctorCheck[]> {
  const { loaded, env } = diagnostics;
  const found: DoctorCheck[] = loaded.warnings.map((warning) => ({
    name: "config",
    status: "warn",
    message: warning,
  }));
  const guarded = async (name: string, run: () => DoctorCheck[] | Promise<DoctorCheck[]>) => {
    try {
      found.push(...(await run()));
    } catch (error) {
      found.push({
        name,
        status: "error",
        message: `the check failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
  await guarded(loaded.stateUrl === undefined ? "state-dir" : "state-database", async () => [
    loaded.stateUrl === undefined
      ? await checkStateDir(loaded.stateDir)
      : await checkStateDatabase(loaded.stateUrl),
  ]);
  await guarded("providers", () => checkProviders(loaded.config, env, loaded.warnings));
  await guarded("mcp-servers", () =>
    checkMcpServers(loaded.config, { configDir: dirname(loaded.path), env }),
  );
  await guarded("policy", () => checkPolicy(loaded.config));
  await guarded("gateway-auth", () => checkGatewayAuth(loaded.config));
  return found;
}
