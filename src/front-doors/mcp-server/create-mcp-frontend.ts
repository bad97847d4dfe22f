import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolSource } from "../../runtime/mcp-client/index.js";
import { MCP_IMPLEMENTATION } from "../../runtime/mcp-client/index.js";
import { traceMcpServerCall } from "../../runtime/telemetry/index.js";
import { messageOf } from "../../shared/errors/index.js";
import { createServeSession, type McpServeShared, type ServeSession } from "./serve-session.js";

/** What `toolsift mcp serve` puts behind its MCP face. */
export interface McpFrontendOptions extends McpServeShared {
  /** The upstream MCP servers (started by the caller). */
  source: Pick<McpToolSource, "tools" | "status" | "onToolsChanged">;
}

/** One live MCP connection. */
export interface McpFrontendConnection {
  readonly sessionKey: string;
  /** True while a `tools/call` of this connection is running. */
  busy(): boolean;
  close(): Promise<void>;
}

/** Tool Search as an MCP server: one low-level SDK Server (and one catalog) per connection. */
export interface McpFrontend {
  /**
   * Serves one MCP connection over `transport` (stdio, or one Streamable HTTP session); `keyId` is the client
   * key that opened it (recorded in its session log header and on its approval requests). Default: none.
   */
  connect(transport: Transport, client?: { keyId?: string }): Promise<McpFrontendConnection>;
  /** Live connections. */
  connections(): number;
  /** Closes every connection and stops watching the upstream servers. */
  close(): Promise<void>;
}

/**
 * Builds the MCP face of toolsift. Each connection lists the three controls plus the visible and
 * direct-only tools (not every upstream tool), carries the directory in its `instructions`, runs calls
 * through the executor pipeline and logs them as one session (agent `mcp`). When an upstream list changes,
 * every connection's catalog is rebuilt and `notifications/tools/list_changed` is sent only to the
 * connections whose listed tools actually changed.
 *
 * The SDK's low-level `Server` is used on purpose: the tools here carry raw JSON Schemas, which the
 * high-level `McpServer` (zod shapes, its own argument validation) cannot pass through.
 */
export function createMcpFrontend(options: McpFrontendOptions): McpFrontend {
  const { environment } = options;
  const log = environment.log ?? (() => {});
  const live = new Set<{ session: ServeSession; server: Server }>();
  const allTools = () => [...(environment.plugins?.tools ?? []), ...options.source.tools()];
  // A server that failed to start offers no tools: the instructions name only the others.
  const serverNames = () =>
    options.source
      .status()
      .filter((server) => server.status !== "failed")
      .map((server) => server.name);

  const unsubscribe = options.source.onToolsChanged(() => {
    for (const connection of live) {
      try {
        if (connection.session.refresh()) {
          connection.server
            .sendToolListChanged()
            .catch((error: unknown) => log(`mcp serve: could not send list_changed: ${messageOf(error)}`));
        }
      } catch (error) {
        log(
          `mcp serve: could not rebuild the tool list of session ${connection.session.sessionKey}: ${messageOf(error)}`,
        );
      }
    }
  });

  return {
    async connect(transport, client) {
      const session = await createServeSession({
        environment,
        profile: options.profile,
        ...(options.maxSessionLogBytes === undefined
          ? {}
          : { maxSessionLogBytes: options.maxSessionLogBytes }),
        ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
        ...(client?.keyId === undefined ? {} : { keyId: client.keyId }),
        tools: allTools,
        serverNames,
      });
      let callsInFlight = 0;
      const server = new Server(
        { ...MCP_IMPLEMENTATION },
        { capabilities: { tools: { listChanged: true } }, instructions: session.instructions() },
      );
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: session.listTools() }));
      // A `tools/call {tool}` server span while tracing, continuing the trace the client sent in `_meta`.
      server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
        traceMcpServerCall(
          {
            tool: request.params.name,
            requestId: extra.requestId,
            meta: request.params._meta,
            ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
          },
          async () => {
            callsInFlight += 1;
            try {
              return await session.callTool(request.params.name, request.params.arguments, {
                requestId: extra.requestId,
                signal: extra.signal,
              });
            } finally {
              callsInFlight -= 1;
            }
          },
        ),
      );
      server.onerror = (error) => log(`mcp serve: ${messageOf(error)}`);
      const connection = { session, server };
      live.add(connection);
      server.onclose = () => {
        live.delete(connection);
        session.close();
      };
      try {
        await server.connect(transport);
      } catch (error) {
        live.delete(connection);
        session.close();
        throw error;
      }
      return {
        sessionKey: session.sessionKey,
        busy: () => callsInFlight > 0,
        close: () => server.close(),
      };
    },
    connections: () => live.size,
    async close() {
      unsubscribe();
      await Promise.all([...live].map((connection) => connection.server.close().catch(() => {})));
    },
  };
}
