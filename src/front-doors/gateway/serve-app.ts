import type { Hono } from "hono";
import { type ServerLimits, serveHardened } from "../http-server/index.js";
import { serverBusy } from "./gateway-error.js";
import { unroutedErrorBody } from "./messages/index.js";
import type { GatewayListener } from "./types.js";

/**
 * Serves `app` on `host:port` on the shared hardened server (`src/front-doors/http-server`) and resolves once it
 * listens (port 0 picks a free port). A port in use or an address that cannot be bound rejects with a
 * message naming both and the option to change. Clients are bounded before any route runs: time to send
 * headers and the whole request (a half-sent request is answered 408 and closed; the run is not bounded by
 * these), idle keep-alive time, time to read the response, and open connections (a cap below the descriptor
 * limit, 503 with `Retry-After` beyond, in the route's API shape).
 */
export async function serveApp(
  app: Hono,
  options: { port: number; host: string; limits?: ServerLimits; log: (line: string) => void },
): Promise<GatewayListener> {
  const served = await serveHardened({
    fetch: app.fetch,
    port: options.port,
    host: options.host,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    name: "gateway",
    listen: {
      name: "the gateway",
      portOption: "--port, or gateway.port in the config",
      bindOption: "--bind, or gateway.bind in the config",
    },
    renderBusy: (path) => unroutedErrorBody(path, serverBusy()),
    log: options.log,
  });
  return { url: served.url, port: served.port, close: served.close };
}
