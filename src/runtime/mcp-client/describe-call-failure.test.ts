import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { type CallFailureContext, describeCallFailure } from "./describe-call-failure.js";

const base: CallFailureContext = {
  server: "crm",
  tool: "create_lead",
  timeoutMs: 500,
  connectionReplaced: false,
  transport: "stdio",
};
const zodError = (() => {
  try {
    z.object({ content: z.array(z.string()) }).parse({});
  } catch (error) {
    return error;
  }
  throw new Error("zod accepted {}");
})();

describe("describeCallFailure", () => {
  it.each([
    [
      "a closed connection",
      new McpError(ErrorCode.ConnectionClosed, "Connection closed"),
      {},
      "TOOL_FAILED",
      'MCP server "crm" closed during the call to "create_lead".',
      false,
    ],
    [
      "a replaced connection",
      new Error("whatever"),
      { connectionReplaced: true },
      "TOOL_FAILED",
      "closed during the call",
      false,
    ],
    [
      "a timeout",
      new McpError(ErrorCode.RequestTimeout, "Request timed out"),
      {},
      "TIMEOUT",
      'did not answer the call to "create_lead" within 500 ms; the call was cancelled.',
      false,
    ],
    [
      "a JSON-RPC error",
      new McpError(ErrorCode.InvalidParams, "bad id"),
      {},
      "TOOL_FAILED",
      'MCP server "crm" refused the call to "create_lead": MCP error -32602: bad id',
      false,
    ],
    ["an invalid result", zodError, {}, "TOOL_FAILED", "not a valid MCP tool result", false],
    ["a stdio write error", new Error("EPIPE"), {}, "TOOL_FAILED", "could not be reached", false],
    [
      "an HTTP network error",
      new TypeError("fetch failed"),
      { transport: "http" },
      "TOOL_FAILED",
      "fetch failed",
      true,
    ],
  ] as const)("words %s", (_label, error, overrides, code, message, connectionLost) => {
    const failure = describeCallFailure(error, { ...base, ...overrides });
    expect(failure.error.code).toBe(code);
    expect(failure.error.message).toContain(message);
    expect(failure.connectionLost).toBe(connectionLost);
  });
});
