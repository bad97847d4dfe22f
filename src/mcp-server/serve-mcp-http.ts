import { randomUUID } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { messageOf, ToolsiftError } from "../errors/index.js";
import {
  type AuthKey,
  type Caller,
  callerHasScope,
  callerMayUseAgent,
  createHttpGuard,
  INVALID_TOKEN_MESSAGE,
} from "../http-guard/index.js";
import type { McpFrontend, McpFrontendConnection } from "./create-mcp-frontend.js";
import {
  HTTP_IDLE_SWEEP_MS,
  HTTP_SESSION_IDLE_MS,
  MAX_HTTP_BODY_BYTES,
  MAX_HTTP_SESSIONS,
  MCP_HTTP_PATH,
} from "./limits.js";

/** Where and how `mcp serve --http` listens. */
export interface ServeMcpHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** The caller decides whether a non-loopback address is allowed (only with a token). */
  host: string;
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

type Session = {
  transport: WebStandardStreamableHTTPServerTransport;
  connection: McpFrontendConnection;
  seen: number;
  /** The key that initialized the session; only it may use the session. */
  keyId: string;
};

/** The agent id `mcp serve` runs its tools as. */
const DEFAULT_MCP_AGENT_ID = "mcp";

/**
 * Serves the frontend over Streamable HTTP at `/mcp`: one MCP session (and one catalog and session log)
 * per `initialize`, found again by its `mcp-session-id`. Errors are JSON-RPC error objects, never stacks.
 * Idle sessions are closed after HTTP_SESSION_IDLE_MS; at most MAX_HTTP_SESSIONS live at once. Every request
 * passes the shared guard first (`src/http-guard`: Host, Origin, bearer token, JSON Content-Type on POST).
 */
export async function serveMcpHttp(
  frontend: McpFrontend,
  options: ServeMcpHttpOptions,
): Promise<HttpMcpServer> {
  const log = options.log ?? (() => {});
  const sessions = new Map<string, Session>();

  const app = new Hono();
  // The gateway's guard, in the same order: Host, Origin (CORS for listed origins), bearer token, JSON POSTs.
  app.use(
    "*",
    createHttpGuard({
      hosts: {
        bindHost: options.host,
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
    const refusal = accessRefusal(caller, options.agentId ?? DEFAULT_MCP_AGENT_ID);
    if (refusal !== undefined) return c.json(rpcError(-32000, refusal), 403);
    const sessionId = c.req.header("mcp-session-id");
    if (sessionId !== undefined) {
      const found = sessions.get(sessionId);
      // Another key's session is answered as an unknown one: its id is not an oracle.
      const session = found !== undefined && found.keyId === caller.keyId ? found : undefined;
      if (!session)
        return c.json(
          rpcError(-32001, "Session not found: start a new session with initialize (no mcp-session-id)."),
          404,
        );
      session.seen = Date.now();
      return session.transport.handleRequest(c.req.raw);
    }
    if (c.req.method !== "POST")
      return c.json(
        rpcError(-32000, "Bad request: send initialize first, then the mcp-session-id header it returns."),
        400,
      );
    if (sessions.size >= MAX_HTTP_SESSIONS)
      return c.json(
        rpcError(-32000, `Too many MCP sessions (at most ${MAX_HTTP_SESSIONS}); close one and retry.`),
        503,
      );
    let connection: McpFrontendConnection | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_HTTP_BODY_BYTES,
      onsessioninitialized: (id) => {
        if (connection) sessions.set(id, { transport, connection, seen: Date.now(), keyId: caller.keyId });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    // The trusted loopback caller presented no key: its sessions record none.
    connection = await frontend.connect(transport, caller.trusted ? {} : { keyId: caller.keyId });
    const response = await transport.handleRequest(c.req.raw);
    // Anything but a successful initialize leaves no session behind.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await connection.close();
    return response;
  });
  app.notFound((c) => c.json(rpcError(-32601, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}.`), 404));
  app.onError((error, c) => {
    log(`mcp serve: request failed: ${messageOf(error)}`);
    return c.json(rpcError(-32603, "Internal error."), 500);
  });

  const server = await listen(app, options);
  const address = server.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.seen < HTTP_SESSION_IDLE_MS) continue;
      sessions.delete(id);
      session.connection.close().catch(() => {});
    }
  }, HTTP_IDLE_SWEEP_MS);
  sweep.unref();

  return {
    url: `http://${hostPart}:${address.port}${MCP_HTTP_PATH}`,
    port: address.port,
    sessions: () => sessions.size,
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.connection.close().catch(() => {})));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
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

function listen(app: Hono, options: ServeMcpHttpOptions): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }) as HttpServer;
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      reject(
        new ToolsiftError(
          "CONFIG_INVALID",
          error.code === "EADDRINUSE"
            ? `mcp serve cannot listen on ${where}: the port is in use. Pick another with --http (0 picks a free one).`
            : `mcp serve cannot listen on ${where}: ${error.code ?? error.message}. Use --bind 127.0.0.1.`,
        ),
      );
    });
    server.once("listening", () => resolve(server));
  });
}
