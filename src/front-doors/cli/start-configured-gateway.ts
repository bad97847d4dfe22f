import { LogRing } from "../../runtime/environment/index.js";
import { checkBindAuth } from "../../runtime/http-guard/index.js";
import type { StateStore } from "../../runtime/state/index.js";
import { escapeControlCharacters } from "../../shared/text/index.js";
import { checkProviders } from "../doctor/index.js";
import { DEFAULT_GATEWAY_HOST, DEFAULT_GATEWAY_PORT, startGateway } from "../gateway/index.js";
import { startFrontDoorTelemetry } from "../serve-lifecycle/index.js";
import { assembleRuntime } from "./assemble-runtime.js";
import type { GatewayStartOptions, RunningGateway } from "./gateway-command.js";

/** How often `sessions.retention` is applied while the gateway runs (it is also applied at start). */
const SESSION_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The real `toolsift gateway` start: the run environment (config, where a bad file refuses the start naming
 * every problem; plugins, where a broken one is logged and skipped; approval broker, session store), a
 * runner over it, then the HTTP server.
 * A non-loopback bind needs `gateway.auth.token` or `gateway.auth.keys` (after `env:` resolution); without
 * either nothing listens. Every log line is redacted (secret shapes, and the config's own keys and token) and
 * has its control characters escaped (one line each, whatever a client, model or tool put in it) before `log`
 * sees it; the same lines go to a LogRing the console's Logs page reads.
 */
export async function startConfiguredGateway(
  options: GatewayStartOptions,
  rawLog: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningGateway> {
  // The console's Logs page reads the recent lines exactly as they are written out.
  const logRing = new LogRing();
  const runtime = await assembleRuntime({
    ...(options.configPath ? { configPath: options.configPath } : {}),
    env,
    log: (line) => {
      const written = escapeControlCharacters(line);
      logRing.append(written);
      rawLog(written);
    },
  });
  const { environment } = runtime;
  const { log } = environment;
  const gatewayConfig = runtime.loaded.config.gateway ?? {};
  const host = options.bind ?? gatewayConfig.bind ?? DEFAULT_GATEWAY_HOST;
  const token = gatewayConfig.auth?.token;
  const keys = gatewayConfig.auth?.keys ?? [];
  try {
    checkBindAuth({ host, ...(token === undefined ? {} : { token }), keys, configPath: runtime.loaded.path });
  } catch (error) {
    await runtime.runner.close();
    throw error;
  }
  // Traces and metrics over OTLP/HTTP when an endpoint is configured; the SDK loads only then.
  const telemetry = await startFrontDoorTelemetry({
    ...(runtime.loaded.config.telemetry ? { config: runtime.loaded.config.telemetry } : {}),
    env,
    log,
  });
  let started: Awaited<ReturnType<typeof startGateway>>;
  try {
    started = await startGateway({
      runner: runtime.runner,
      sessions: environment.sessions,
      state: environment.state,
      approvals: environment.approvals,
      port: options.port ?? gatewayConfig.port ?? DEFAULT_GATEWAY_PORT,
      host,
      log,
      logRing,
      diagnostics: { loaded: runtime.loaded, env, mcp: environment.mcp },
      ...(token === undefined ? {} : { authToken: token }),
      ...(keys.length === 0 ? {} : { authKeys: keys }),
      ...(gatewayConfig.maxBodyBytes === undefined ? {} : { maxBodyBytes: gatewayConfig.maxBodyBytes }),
      ...(gatewayConfig.hostedTools === undefined ? {} : { hostedTools: gatewayConfig.hostedTools }),
      ...(gatewayConfig.console === undefined ? {} : { console: gatewayConfig.console }),
      // Browser safety: the Host check knows the bind address; listed origins get CORS.
      bindHost: host,
      ...(gatewayConfig.cors?.allowOrigins === undefined
        ? {}
        : { allowOrigins: gatewayConfig.cors.allowOrigins }),
      ...(gatewayConfig.allowedHosts === undefined ? {} : { allowedHosts: gatewayConfig.allowedHosts }),
      ...(gatewayConfig.trustedProxies === undefined ? {} : { trustedProxies: gatewayConfig.trustedProxies }),
      ...(gatewayConfig.maxQueuedPerSession === undefined
        ? {}
        : { maxQueuedPerSession: gatewayConfig.maxQueuedPerSession }),
    });
  } catch (error) {
    await telemetry.stopAfter(async () => {
      environment.approvals.close();
      await runtime.runner.close();
      await environment.state.close();
    });
    throw error;
  }
  for (const plugin of environment.plugins.plugins)
    log(`plugin ${plugin.id} loaded: ${plugin.tools.length} tools`);
  // A provider an agent uses that cannot send a request (no key, not configured, its client package not
  // installed) is said now, not at the
  // first request's 502.
  for (const check of checkProviders(runtime.loaded.config, env, runtime.loaded.warnings)) {
    if (check.status === "warn" || check.status === "error")
      log(
        `warning: ${check.message.replace(/\.$/u, "")}; runs that use this provider fail until it is fixed (toolsift doctor checks it).${check.fix === undefined ? "" : ` Fix: ${check.fix}`}`,
      );
  }
  if (token !== undefined && keys.length === 0)
    log("gateway auth: every route but /healthz requires Authorization: Bearer <gateway.auth.token>");
  else if (keys.length > 0) {
    const ids = [...(token === undefined ? [] : ["admin"]), ...keys.map((key) => key.id)];
    log(`gateway auth: every route but /healthz requires one of the keys ${ids.join(", ")} (gateway.auth)`);
  } else log("gateway auth: none; every local caller is trusted with every scope (loopback only)");
  const origins = gatewayConfig.cors?.allowOrigins ?? [];
  log(
    origins.length === 0
      ? "gateway browsers: requests with an Origin header are refused (list web apps in gateway.cors.allowOrigins)"
      : `gateway browsers: CORS for ${origins.join(", ")}; other origins are refused`,
  );
  log(
    gatewayConfig.console === false
      ? "gateway console: off (gateway.console: false)"
      : `gateway console: ${started.url}/console${keys.length > 0 || token !== undefined ? " (sign in with a key's token)" : ""}`,
  );
  const proxies = gatewayConfig.trustedProxies ?? [];
  if (proxies.length > 0)
    log(
      `gateway proxies: X-Forwarded-For names the client of requests from ${proxies.join(", ")} (gateway.trustedProxies)`,
    );
  const stopPruning = scheduleSessionPruning(environment.state, runtime.loaded.config.sessions, log);
  // Upstream MCP servers connect in the background once the gateway listens; each one's status is logged.
  // Then every agent's catalog and search index are built, so the first run finds them ready.
  void environment.mcp
    .start()
    .then(
      () => {
        for (const server of environment.mcp.status()) {
          const error = server.error === undefined ? "" : `: ${server.error}`;
          log(`mcp server ${server.name}: ${server.status}, ${server.tools} tools${error}`);
        }
      },
      (error: unknown) =>
        log(`mcp servers failed to start: ${error instanceof Error ? error.message : String(error)}`),
    )
    .then(() => runtime.runner.warm?.())
    .then(
      (warmed) => {
        if (warmed)
          log(`search ready: ${warmed.agents} agents, ${warmed.tools} tools indexed in ${warmed.ms} ms`);
      },
      (error: unknown) =>
        log(
          `search warm-up failed (runs build it on first use): ${error instanceof Error ? error.message : String(error)}`,
        ),
    );
  return {
    url: started.url,
    // Telemetry last: the spans of the drained runs are flushed to the collector.
    stop: () =>
      telemetry.stopAfter(async () => {
        // Pending approvals are denied at once, so runs waiting on an operator finish inside the drain.
        stopPruning();
        environment.approvals.close();
        await started.stop();
        await runtime.runner.close();
        await environment.state.close();
      }),
  };
}

/**
 * Applies `sessions.retention` now and every SESSION_PRUNE_INTERVAL_MS (oldest logs first; a log written in
 * the last hour is never removed); returns what stops it. Without a retention setting nothing runs.
 */
function scheduleSessionPruning(
  state: Pick<StateStore, "prune">,
  sessions: { retention?: { maxAgeDays?: number; maxTotalBytes?: number } } | undefined,
  log: (line: string) => void,
): () => void {
  const retention = sessions?.retention;
  if (retention?.maxAgeDays === undefined && retention?.maxTotalBytes === undefined) return () => undefined;
  const prune = () =>
    state.prune(retention).then(
      (report) => {
        if (report.removed.length > 0)
          log(
            `sessions.retention: removed ${report.removed.length} session logs (${report.removedBytes} bytes); ${report.keptBytes} bytes kept`,
          );
      },
      (error: unknown) =>
        log(`sessions.retention: pruning failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  void prune();
  const timer = setInterval(() => void prune(), SESSION_PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
