import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { escapeControlCharacters } from "../../shared/text/index.js";
import { ConnectionGuard } from "./connection-guard.js";
import { descriptorExhaustion } from "./descriptor-exhaustion.js";
import { type ConnectionBudget, connectionBudget, readDescriptorLimit } from "./descriptor-limit.js";
import {
  CONNECTION_CLOSE_GRACE_MS,
  CONNECTIONS_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  SEND_TIMEOUT_MS,
} from "./limits.js";
import { type ListenErrorContext, listenError } from "./listen-error.js";
import { createRepeatLimitedLog, type RepeatLimitedLog } from "./repeat-limited-log.js";

/** What one HTTP client can hold of a server; every field defaults to its constant in `limits.ts`. */
export type ServerLimits = {
  /** Time to send the request headers. Default 15 s (`HEADERS_TIMEOUT_MS`); at most `requestTimeoutMs`. */
  headersTimeoutMs?: number;
  /** Time to send the whole request (headers and body), not the work. Default 60 s (`REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs?: number;
  /** Idle time of a keep-alive connection between requests. Default 5 s (`KEEP_ALIVE_TIMEOUT_MS`). */
  keepAliveTimeoutMs?: number;
  /** Time queued response bytes may wait for the client to read. Default 30 s (`SEND_TIMEOUT_MS`). */
  sendTimeoutMs?: number;
  /**
   * Most open connections served. Default 1,024 (`MAX_CONNECTIONS`), and always below the process's soft
   * descriptor limit minus a reserve (see `connectionBudget`); beyond it, 503 with `Retry-After`.
   */
  maxConnections?: number;
  /** The soft descriptor limit to budget for. Default: read from `/proc/self/limits` (unknown elsewhere). */
  descriptorLimit?: number;
};

/** Where and how `serveHardened` listens. */
export type ServeHardenedOptions = {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  host: string;
  limits?: ServerLimits;
  /** Names the server in log lines: `gateway`, `mcp serve`. */
  name: string;
  /** Names the server and the options that move it when it cannot listen (see `listenError`). */
  listen: Omit<ListenErrorContext, "host" | "port">;
  /** The body of the 503 answered beyond the connection cap, in the server's error shape, for a request path. */
  renderBusy: (path: string) => unknown;
  /** Receives the server's own lines (connection limit, send timeout, accept errors), repeat-limited. */
  log: (line: string) => void;
};

/** A listening hardened server. */
export type HardenedServer = {
  server: Server;
  /** Base URL, e.g. `http://127.0.0.1:18789` (the real port when 0 was asked for). */
  url: string;
  port: number;
  budget: ConnectionBudget;
  /** Stops listening and resolves once every connection closed (lingering ones are cut after a grace). */
  close(): Promise<void>;
};

/**
 * Serves `fetch` (a Hono app's) on `host:port` with Node's HTTP server, hardened against clients that hold
 * it before any auth: header, request (body), keep-alive and send timeouts, and a connection cap below the
 * process's descriptor limit with 503 `Retry-After` beyond and early closing of idle connections near it
 * (`ConnectionGuard`). An error accepting connections (EMFILE) is logged once per cause, never thrown.
 * The one server of both the gateway and `mcp serve --http`. When it cannot listen it rejects with
 * `listenError`'s CONFIG_INVALID naming the option to change (a port in use, an address not of this machine).
 */
export function serveHardened(options: ServeHardenedOptions): Promise<HardenedServer> {
  const limits = options.limits ?? {};
  const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const log = (line: string) => options.log(escapeControlCharacters(line));
  const repeatLimited = createRepeatLimitedLog(log);
  const softLimit = limits.descriptorLimit ?? readDescriptorLimit()?.soft;
  const budget = connectionBudget({
    ...(limits.maxConnections === undefined ? {} : { maxConnections: limits.maxConnections }),
    ...(softLimit === undefined ? {} : { softLimit }),
  });
  const guard = new ConnectionGuard({
    budget,
    sendTimeoutMs: limits.sendTimeoutMs ?? SEND_TIMEOUT_MS,
    renderBusy: options.renderBusy,
    log: repeatLimited,
    name: options.name,
  });
  const server = createServer(
    {
      // Node requires headersTimeout <= requestTimeout.
      headersTimeout: Math.min(limits.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout),
      requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(CONNECTIONS_CHECK_INTERVAL_MS, requestTimeout),
    },
    guard.wrap(getRequestListener(options.fetch, { hostname: options.host })),
  );
  guard.attach(server);
  return new Promise((resolve, reject) => {
    const onListenError = (error: NodeJS.ErrnoException) => {
      guard.close();
      repeatLimited.close();
      reject(listenError(error, { ...options.listen, host: options.host, port: options.port }));
    };
    server.once("error", onListenError);
    server.listen(options.port, options.host, () => {
      server.off("error", onListenError);
      // Once listening, an error is about accepting one connection (EMFILE): logged, never fatal.
      server.on("error", (error) => logServerError(repeatLimited, options.name, error));
      const address = server.address() as AddressInfo;
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({
        server,
        url: `http://${host}:${address.port}`,
        port: address.port,
        budget,
        close: async () => {
          await closeServer(server);
          guard.close();
          repeatLimited.close();
        },
      });
    });
  });
}

function logServerError(log: RepeatLimitedLog, name: string, error: NodeJS.ErrnoException): void {
  const exhausted = descriptorExhaustion(error);
  if (exhausted !== undefined) {
    log(
      `accept:${exhausted}`,
      `${name}: cannot accept connections: out of file descriptors (${exhausted}); raise the limit (ulimit -n) ` +
        "or lower the connection cap",
    );
    return;
  }
  const cause = error.code ?? error.message;
  log(`server:${cause}`, `${name}: server error: ${error.code ?? ""} ${error.message}`.replace(/\s+/gu, " "));
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
