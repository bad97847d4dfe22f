/**
 * Attribute names of the OpenTelemetry GenAI and MCP semantic conventions (status: development) that toolsift
 * sets, and its own `toolsift.*` names for what the conventions do not cover. One place, so a rename in the
 * conventions is one edit.
 */
export const Attribute = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  requestMaxTokens: "gen_ai.request.max_tokens",
  responseId: "gen_ai.response.id",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  tokenType: "gen_ai.token.type",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  errorType: "error.type",
  mcpMethodName: "mcp.method.name",
  mcpSessionId: "mcp.session.id",
  jsonrpcRequestId: "jsonrpc.request.id",
  networkTransport: "network.transport",
  runId: "toolsift.run.id",
  runStatus: "toolsift.run.status",
  toolId: "toolsift.tool.id",
  toolSource: "toolsift.tool.source",
  callSurface: "toolsift.tool.surface",
  toolOutcome: "toolsift.tool.outcome",
  blockedReason: "toolsift.tool.blocked_reason",
  searchQueryCount: "toolsift.search.query_count",
  searchLimit: "toolsift.search.limit",
  searchHitCount: "toolsift.search.hit_count",
  mcpServer: "toolsift.mcp.server",
  providerRequestBytes: "toolsift.provider.request_bytes",
} as const;

/** `gen_ai.operation.name` values toolsift uses. */
export const Operation = {
  invokeAgent: "invoke_agent",
  chat: "chat",
  executeTool: "execute_tool",
} as const;

/** Metric instrument names: the GenAI conventions' where they define one, `toolsift.*` otherwise. */
export const Metric = {
  operationDuration: "gen_ai.client.operation.duration",
  tokenUsage: "gen_ai.client.token.usage",
  toolDuration: "gen_ai.execute_tool.duration",
  searchDuration: "toolsift.search.duration",
  searchHits: "toolsift.search.hits",
} as const;

/** The MCP method toolsift traces (client and server side). */
export const MCP_TOOLS_CALL = "tools/call";

/** `invoke_agent {agent}`: one span per run. */
export function invokeAgentSpanName(agentId: string): string {
  return `${Operation.invokeAgent} ${agentId}`;
}

/** `chat {model}`: one span per provider request. */
export function chatSpanName(model: string): string {
  return `${Operation.chat} ${model}`;
}

/** `execute_tool {tool}`: one span per tool call (the model's, and each target behind `tool_call`). */
export function executeToolSpanName(toolName: string): string {
  return `${Operation.executeTool} ${toolName}`;
}

/** `tools/call {tool}`: an MCP call, client or server side. */
export function mcpToolsCallSpanName(toolName: string): string {
  return `${MCP_TOOLS_CALL} ${toolName}`;
}
