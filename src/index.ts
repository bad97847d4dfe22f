/**
 * toolsift: Tool Search for LLM agents. The library contract summarised in docs/library.md; the names and
 * shapes exported here are public and stable.
 */
export type {
  JsonSchema,
  ToolCallContext,
  ToolContent,
  ToolDefinition,
  ToolOrigin,
  ToolResult,
} from "./catalog/index.js";
export {
  type CellError,
  type CodeMode,
  type CodeModeErrorCode,
  type CodeModeOptions,
  type CodeModeOutcome,
  createCodeMode,
  type ExecOptions,
  type WaitOptions,
} from "./code-mode/index.js";
export type {
  BatchSearchGroup,
  BatchSearchResponse,
  CallEnvelope,
  SearchCandidate,
  SkillReference,
  Telemetry,
  ToolDescription,
} from "./controls/index.js";
export type { ToolSearchMode } from "./directory/index.js";
export { isToolsiftError, ToolsiftError, type ToolsiftErrorCode } from "./errors/index.js";
export type {
  ApprovalDecision,
  BeforeToolCallResult,
  CallSurface,
  ExecutionHooks,
  PolicyDecision,
  ToolCallActivity,
  ToolCallEvent,
} from "./execution/index.js";
export type { Harness, ModelReference, ToolSearchConfigValue } from "./tool-search/index.js";
export { createToolSearch, type ToolSearch, type ToolSearchOptions } from "./tool-search/index.js";
