import type { Hono } from "hono";
import { ToolsiftError } from "../../shared/errors/index.js";
import { type ServerLimits, serveHardened } from "../http-server/index.js";
import { serverBusy } from "./gateway-error.js";
import { unroutedErrorBody } from "./messages/index.js";
import type { GatewayListener } from "./types.js";

/**
 * Serves `app` on `host:port` on the shared hardened server (`src/front-doors/http-server`) and resolves once it
 * listens (port 0 picks a free port). A port in use or an address that cannot be bound rejects with a
 * message naming both. Clients are bounded before any route runs: time to send headers and the whole
 * request (a half-sent request is answered 408 and closed; the run is not bounded by these), idle
 * keep-alive time, time to read the response, and open connections (a cap below the descriptor limit,
 * 503 with `Retry-After` beyond, in the route's API shape).
 */
export async function serveApp(
  app: Hono,
  options: { port: number; host: string; limits?: ServerLimits; log: (line: string) => void },
): Promise<GatewayListener> {
  try {
    const served = await serveHardened({
      fetch: app.fetch,
      port: options.port,
      host: options.host,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      name: "gateway",
      renderBusy: (path) => unroutedErrorBody(path, serverBusy()),
      log: options.log,
    });
    return { url: served.url, port: served.port, close: served.close };
  } catch (error) {
    throw listenError(error as NodeJS.ErrnoException, options);
  }
}

function listenError(error: NodeJS.ErrnoException, options: { port: number; host: string }): ToolsiftError {
  const where = `${options.host}:${options.port}`;
  if (error.code === "EADDRINUSE") {
    return new ToolsiftError(
      "CONFIG_INVALID",
      `the gateway cannot listen on ${where}: the port is in use. Stop the other process, or pick another port (--port, or gateway.port in the config; 0 picks a free one).`,
    );
  }
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
    return new ToolsiftError(
      "CONFIG_INVALID",
      `the gateway cannot listen on ${where}: "${options.host}" is not an address of this machine. Use 127.0.0.1 (--bind, or gateway.bind in the config).`,
    );
  }
  if (error.code === "EACCES") {
    return new ToolsiftError(
      "CONFIG_INVALID",
      `the gateway may not listen on ${where}: permission denied. Use a port above 1023.`,
    );
  }
  return new ToolsiftError("INTERNAL", `the gateway cannot listen on ${where}: ${error.message}`);
}
