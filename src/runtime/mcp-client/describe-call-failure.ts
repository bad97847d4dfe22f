import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { messageOf, ToolsiftError } from "../../shared/errors/index.js";

/** What is known about a failed upstream call besides the error itself. */
export interface CallFailureContext {
  /** The server's name in the config. */
  server: string;
  tool: string;
  timeoutMs: number;
  /** The connection the call went out on was lost (and replaced) while the call was pending. */
  connectionReplaced: boolean;
  transport: "stdio" | "http";
}

/**
 * The error a failed upstream call ends with, worded for the model (the executor sanitises it again), and
 * whether the failure means the connection is gone (an HTTP server that cannot be reached any more; a stdio
 * server's exit is noticed by the transport itself).
 */
export function describeCallFailure(
  error: unknown,
  context: CallFailureContext,
): { error: ToolsiftError; connectionLost: boolean } {
  const { server, tool } = context;
  if (
    context.connectionReplaced ||
    (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
  ) {
    return {
      error: new ToolsiftError(
        "TOOL_FAILED",
        `MCP server "${server}" closed during the call to "${tool}". The server is being restarted; the call may or may not have had effects, so check before retrying.`,
      ),
      connectionLost: false,
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return {
      error: new ToolsiftError(
        "TIMEOUT",
        `MCP server "${server}" did not answer the call to "${tool}" within ${context.timeoutMs} ms; the call was cancelled. It may still have had effects; check before retrying.`,
      ),
      connectionLost: false,
    };
  }
  if (error instanceof McpError) {
    return {
      error: new ToolsiftError(
        "TOOL_FAILED",
        `MCP server "${server}" refused the call to "${tool}": ${error.message}`,
      ),
      connectionLost: false,
    };
  }
  if (error instanceof Error && error.name === "ZodError") {
    return {
      error: new ToolsiftError(
        "TOOL_FAILED",
        `MCP server "${server}" answered the call to "${tool}" with something that is not a valid MCP tool result.`,
      ),
      connectionLost: false,
    };
  }
  const message = messageOf(error);
  return {
    error: new ToolsiftError(
      "TOOL_FAILED",
      `MCP server "${server}" could not be reached for the call to "${tool}": ${message}`,
    ),
    connectionLost: context.transport === "http",
  };
}
