import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { MCP_SERVE_PROFILE_ID } from "../../runtime/environment/index.js";
import {
  type AuthKey,
  type Caller,
  callerHasScope,
  callerMayUseAgent,
  checkBindAuth,
  createHttpGuard,
  DEFAULT_BIND_HOST,
  INVALID_TOKEN_MESSAGE,
} from "../../runtime/http-guard/index.js";
import { escapeControlCharacters } from "../../shared/text/index.js";
import {
  BUSY_RETRY_AFTER_SECONDS,
  createRequestFailureLog,
  type ServerLimits,
  serveHardened,
} from "../http-server/index.js";
import type { McpFrontend, McpFrontendConnection } from "./create-mcp-frontend.js";
import { createHttpSessionPool, type PooledSession } from "./http-session-pool.js";
import { HTTP_SESSION_IDLE_MS, MAX_HTTP_BODY_BYTES, MAX_HTTP_SESSIONS } from "./limits.js";

/** Where and how `mcp serve --http` listens. */
export interface ServeMcpHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /**
   * Default 127.0.0.1 (`DEFAULT_BIND_HOST`). Another address needs `token` or `keys`, and a blank `token` is
   * refused anywhere (`checkBindAuth`, the gateway's rule).
   */
  host?: string;
  /** The legacy single token (the admin key "admin"): with it or `keys`, every request needs a key. */
  token?: string;
  /**
   * Client keys (`gateway.auth.keys`): a request needs one with the `runs` scope whose `agents` (when listed)
   * include the MCP agent id, and an MCP session answers only the key that initialized it. Default: none.
   */
  keys?: readonly AuthKey[];
  /** The agent id `mcp serve` runs as, checked against a key's `agents`. Default "mcp". */
  agentId?: string;
  /** Origins whose web pages may call the server (`gateway.cors.allowOrigins`); any other `Origin` is 403. */
  allowOrigins?: readonly string[];
  /** More `Host` names the server answers to, any port (`gateway.allowedHosts`); see `createHostCheck`. */
  allowedHosts?: readonly string[];
  /**
   * Most MCP sessions kept (`mcp.serve.maxSessions`); at the cap a new session evicts the least recently
   * used idle one, and is refused with 503 only when every session is busy. Default 64.
   */
  maxSessions?: number;
  /** A session without a request for this long (ms) is closed (`mcp.serve.sessionIdleMs`). Default 30 min. */
  sessionIdleMs?: number;
  /** What clients can hold of the server (the gateway's hardened server); defaults in `src/front-doors/http-server`. */
  limits?: ServerLimits;
  /** Every line is one line: control characters are escaped. */
  log?: (line: string) => void;
}

/** A running Streamable HTTP MCP server. */
export interface HttpMcpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Live MCP sessions. */
  sessions(): number;
  close(): Promise<void>;
}

/** Request headers a page of a listed origin may send to `/mcp` (what the SDK's HTTP client sends). */
const MCP_CORS_ALLOW_HEADERS = [
  "authorization",
  "content-type",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
];

type Session = PooledSession & {
  transport: WebStandardStreamableHTTPServerTransport;
  /** The key that initialized the session; only it may use the session. */
  keyId: string;
};

/** Path of the MCP endpoint of `mcp serve --http`. */
const MCP_HTTP_PATH = "/mcp";

/** How often idle HTTP sessions are looked for (1 min, or the idle timeout when that is shorter). */
const HTTP_IDLE_SWEEP_MS = 60_000;

/** The shortest interval between idle sweeps (1 s), whatever the idle timeout. */
const HTTP_MIN_IDLE_SWEEP_MS = 1_000;

/** `Retry-After` (seconds) of the 503 a new session gets while every session has a call running. */
const HTTP_SESSIONS_BUSY_RETRY_AFTER_S = 5;

/**
 * Serves the frontend over Streamable HTTP at `/mcp`: one MCP session (and one catalog and session log)
 * per `initialize`, found again by its `mcp-session-id`. Errors are JSON-RPC error objects, never stacks.
 * Idle sessions are closed after `sessionIdleMs`; at most `maxSessions` live at once, the least recently used
 * idle one evicted for a newcomer (`http-session-pool.ts`), 503 with `Retry-After` when all are busy. Every
 * request passes the shared guard first (`src/runtime/http-guard`: Host, Origin, bearer token, JSON Content-Type on
 * POST), on the gateway's hardened server (`src/front-doors/http-server`: header, body, keep-alive and send timeouts, a
 * connection cap below the descriptor limit with 503 `Retry-After` beyond). Like the gateway, it refuses
 * (CONFIG_INVALID, before listening) a blank token, or an address off loopback without a token or keys.
 */
export async function serveMcpHttp(
  frontend: McpFrontend,
  options: ServeMcpHttpOptions,
): Promise<HttpMcpServer> {
  const host = options.host ?? DEFAULT_BIND_HOST;
  checkBindAuth({
    host,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.keys === undefined ? {} : { keys: options.keys }),
  });
  const sink = options.log ?? (() => {});
  const log = (line: string) => sink(escapeControlCharacters(line));
  const failures = createRequestFailureLog({ name: "mcp serve", log });
  const maxSessions = options.maxSessions ?? MAX_HTTP_SESSIONS;
  const idleMs = options.sessionIdleMs ?? HTTP_SESSION_IDLE_MS;
  const sessions = createHttpSessionPool<Session>({ maxSessions, idleMs, log });

  const app = new Hono();
  // The gateway's guard, in the same order: Host, Origin (CORS for listed origins), bearer token, JSON POSTs.
  app.use(
    "*",
    createHttpGuard({
      hosts: {
        bindHost: host,
        ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      },
      ...(options.allowOrigins === undefined ? {} : { allowOrigins: options.allowOrigins }),
      cors: {
        allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
        allowHeaders: MCP_CORS_ALLOW_HEADERS,
        exposeHeaders: ["mcp-session-id"],
      },
      ...(options.token === undefined ? {} : { bearerToken: options.token }),
      ...(options.keys === undefined ? {} : { keys: options.keys }),
      requiresJsonBody: (method, path) => method === "POST" && path === MCP_HTTP_PATH,
      render: (refusal) => rpcError(-32000, refusal.message),
      log: (line) => log(`mcp serve: ${line}`),
    }),
  );
  app.all(MCP_HTTP_PATH, async (c) => {
    const caller = c.get("caller");
    if (caller === undefined) return c.json(rpcError(-32000, INVALID_TOKEN_MESSAGE), 401);
    const refusal = accessRefusal(caller, options.agentId ?? MCP_SERVE_PROFILE_ID);
    if (refusal !== undefined) return c.json(rpcError(-32000, refusal), 403);
    const sessionId = c.req.header("mcp-session-id");
    if (sessionId !== undefined) {
      // A message (POST) makes the session the most recently used; its listening stream (GET) does not.
      // Another key's session is answered as an unknown one: its id is not an oracle.
      const used = sessions.use(
        sessionId,
        c.req.method === "POST",
        (session) => session.keyId === caller.keyId,
      );
      if (!used)
        return c.json(
          rpcError(-32001, "Session not found: start a new session with initialize (no mcp-session-id)."),
          404,
        );
      try {
        return await used.session.transport.handleRequest(c.req.raw);
      } finally {
        used.done();
      }
    }
    if (c.req.method !== "POST")
      return c.json(
        rpcError(-32000, "Bad request: send initialize first, then the mcp-session-id header it returns."),
        400,
      );
    const slot = sessions.reserve();
    if (!slot) {
      c.header("Retry-After", String(HTTP_SESSIONS_BUSY_RETRY_AFTER_S));
      return c.json(
        rpcError(
          -32000,
          `Too many busy MCP sessions (all ${maxSessions} have a call running; mcp.serve.maxSessions): retry in a few seconds.`,
        ),
        503,
      );
    }
    try {
      let connection: McpFrontendConnection | undefined;
      let initialized = false;
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        maxRequestBodySize: MAX_HTTP_BODY_BYTES,
        onsessioninitialized: (id) => {
          const live = connection;
          if (!live) return;
          initialized = true;
          slot.fill(id, {
            transport,
            keyId: caller.keyId,
            busy: () => live.busy(),
            close: () => live.close(),
          });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      // The trusted loopback caller presented no key: its sessions record none.
      connection = await frontend.connect(transport, caller.trusted ? {} : { keyId: caller.keyId });
      const response = await transport.handleRequest(c.req.raw);
      // Anything but a successful initialize leaves no session behind.
      if (!initialized) await connection.close();
      return response;
    } finally {
      slot.release();
    }
  });
  app.notFound((c) => c.json(rpcError(-32601, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}.`), 404));
  // Each cause is logged once, then counted: a failure repeated per request is not a line per request.
  app.onError((error, c) => {
    if (failures(`in mcp serve on ${c.req.method} ${c.req.path}`, error) === "internal")
      return c.json(rpcError(-32603, "Internal error."), 500);
    c.header("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
    return c.json(rpcError(-32000, busyMessage()), 503);
  });

  const served = await serveHardened({
    fetch: app.fetch,
    port: options.port,
    host,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    name: "mcp serve",
    listen: { name: "mcp serve", portOption: "--http", bindOption: "--bind" },
    renderBusy: () => rpcError(-32000, busyMessage()),
    log,
  });
  const sweepEveryMs = Math.min(HTTP_IDLE_SWEEP_MS, Math.max(HTTP_MIN_IDLE_SWEEP_MS, idleMs));
  const sweep = setInterval(() => sessions.sweep(), sweepEveryMs);
  sweep.unref();

  return {
    url: `${served.url}${MCP_HTTP_PATH}`,
    port: served.port,
    sessions: () => sessions.size(),
    async close() {
      clearInterval(sweep);
      await sessions.closeAll();
      const closing = served.close();
      // Open SSE streams end now, not after the close grace.
      served.server.closeAllConnections();
      await closing;
      failures.close();
    },
  };
}

/** Why `caller` may not use `mcp serve` (no `runs` scope, or an `agents` list without the MCP agent), if so. */
function accessRefusal(caller: Caller, agentId: string): string | undefined {
  if (!callerHasScope(caller, "runs"))
    return `Forbidden: key "${caller.keyId}" lacks the scope "runs" that mcp serve needs (gateway.auth.keys).`;
  if (!callerMayUseAgent(caller, agentId))
    return `Forbidden: key "${caller.keyId}" may not use agent "${agentId}" (gateway.auth.keys[].agents).`;
  return undefined;
}

function rpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

function busyMessage(): string {
  return `mcp serve is at its connection or file limit; retry after ${BUSY_RETRY_AFTER_SECONDS} s.`;
}
