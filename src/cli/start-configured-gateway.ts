import { isIP } from "node:net";
import { ToolsiftError } from "../errors/index.js";
import { DEFAULT_GATEWAY_HOST, DEFAULT_GATEWAY_PORT, startGateway } from "../gateway/index.js";
import { assembleRuntime } from "./assemble-runtime.js";
import type { GatewayStartOptions, RunningGateway } from "./gateway-command.js";

/**
 * The real `toolsift gateway` start: config (a bad file refuses the start, naming every problem), plugins
 * (a broken one is logged and skipped), runner and session store, then the HTTP server. Only loopback
 * addresses are served until gateway auth exists.
 */
export async function startConfiguredGateway(
  options: GatewayStartOptions,
  log: (line: string) => void,
): Promise<RunningGateway> {
  const runtime = await assembleRuntime({ ...(options.configPath ? { configPath: options.configPath } : {}), log });
  const gatewayConfig = runtime.loaded.config.gateway ?? {};
  const host = options.bind ?? gatewayConfig.bind ?? DEFAULT_GATEWAY_HOST;
  if (!isLoopback(host)) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `Refusing to listen on ${host}: only loopback addresses (127.0.0.1, ::1, localhost) are served for now. ` +
        "Bind to 127.0.0.1 and put a reverse proxy with authentication in front to expose the gateway.",
    );
  }
  const started = await startGateway({
    runner: runtime.runner,
    sessions: runtime.sessions,
    port: options.port ?? gatewayConfig.port ?? DEFAULT_GATEWAY_PORT,
    host,
    log,
    ...(gatewayConfig.maxBodyBytes === undefined ? {} : { maxBodyBytes: gatewayConfig.maxBodyBytes }),
  });
  for (const plugin of runtime.plugins.plugins) log(`plugin ${plugin.id} loaded: ${plugin.tools.length} tools`);
  return {
    url: started.url,
    stop: async () => {
      await started.stop();
      await runtime.runner.close();
    },
  };
}

function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}
