import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { MAX_STDIO_BUFFER_BYTES } from "../../runtime/mcp-client/index.js";
import type { McpFrontend } from "./create-mcp-frontend.js";

/** A running stdio MCP server. */
export interface StdioMcpServer {
  readonly sessionKey: string;
  /** Resolves when the client is gone: stdin ended or the connection closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one MCP connection over stdin/stdout (default: the process's own). Only protocol messages go to
 * `stdout`; everything else the caller logs must go to stderr. The SDK transport does not notice the end of
 * stdin, so that is watched here: the client closing the pipe ends the connection.
 */
export async function serveMcpStdio(
  frontend: McpFrontend,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): Promise<StdioMcpServer> {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  const transport = new StdioServerTransport(stdin, stdout, { maxBufferSize: MAX_STDIO_BUFFER_BYTES });
  let markClosed = (): void => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const connection = await frontend.connect(transport);
  const previousOnClose = transport.onclose;
  transport.onclose = () => {
    previousOnClose?.();
    markClosed();
  };
  const onEnd = () => {
    connection.close().catch(() => {});
    markClosed();
  };
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  stdout.on("error", onEnd);
  if (stdin.readableEnded || stdin.destroyed) onEnd();
  return {
    sessionKey: connection.sessionKey,
    closed: closed.then(() => {
      stdin.off("end", onEnd);
      stdin.off("close", onEnd);
      stdout.off("error", onEnd);
    }),
    async close() {
      await connection.close();
      markClosed();
    },
  };
}
