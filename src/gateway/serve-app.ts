import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { ToolsiftError } from "../errors/index.js";
import {
  CONNECTION_CLOSE_GRACE_MS,
  CONNECTIONS_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";
import type { GatewayListener, ServerLimits } from "./types.js";

/**
 * Serves `app` on `host:port` with Node's HTTP server and resolves once it listens (port 0 picks a free
 * port). A port in use or an address that cannot be bound rejects with a message naming both. The server
 * bounds what a client can hold: time to send headers and to send the whole request (a half-sent request is
 * answered 408 and closed; the run and its response are not bounded by these), idle keep-alive time, and
 * open connections (more are closed at once).
 */
export function serveApp(
  app: Hono,
  options: { port: number; host: string; limits?: ServerLimits },
): Promise<GatewayListener> {
  return new Promise((resolve, reject) => {
    const limits = options.limits ?? {};
    const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    const server = serve({
      fetch: app.fetch,
      port: options.port,
      hostname: options.host,
      serverOptions: {
        // Node requires headersTimeout <= requestTimeout.
        headersTimeout: Math.min(limits.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout),
        requestTimeout,
        keepAliveTimeout: limits.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
        connectionsCheckingInterval: Math.min(CONNECTIONS_CHECK_INTERVAL_MS, requestTimeout),
      },
    }) as Server;
    server.maxConnections = limits.maxConnections ?? MAX_CONNECTIONS;
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, options));
    server.once("error", onError);
    server.once("listening", () => {
      server.off("error", onError);
      const address = server.address() as AddressInfo;
      resolve({ url: baseUrl(address), port: address.port, close: () => closeServer(server) });
    });
  });
}

function baseUrl(address: AddressInfo): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
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

/** Stops accepting connections, closes idle ones, and cuts the rest after a grace period. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const cut = setTimeout(() => server.closeAllConnections(), CONNECTION_CLOSE_GRACE_MS);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
