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
} from "./core/catalog/index.js";
export type {
  BatchSearchGroup,
  BatchSearchResponse,
  CallEnvelope,
  SearchCandidate,
  SkillReference,
  Telemetry,
  ToolDescription,
} from "./core/controls/index.js";
export type { ToolSearchMode } from "./core/directory/index.js";
export type {
  ApprovalDecision,
  BeforeToolCallResult,
  CallSurface,
  ExecutionHooks,
  PolicyDecision,
  ToolCallActivity,
  ToolCallEvent,
} from "./core/execution/index.js";
export type { Harness, ModelReference, ToolSearchConfigValue } from "./core/tool-search/index.js";
export { createToolSearch, type ToolSearch, type ToolSearchOptions } from "./core/tool-search/index.js";
export {
  type CellError,
  type CodeMode,
  type CodeModeErrorCode,
  type CodeModeOptions,
  type CodeModeOutcome,
  createCodeMode,
  type ExecOptions,
  type WaitOptions,
} from "./runtime/code-mode/index.js";
export { isToolsiftError, ToolsiftError, type ToolsiftErrorCode } from "./shared/errors/index.js";
