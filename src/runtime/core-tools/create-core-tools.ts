import path from "node:path";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { createEditTool } from "./edit-tool.js";
import { createExecTool } from "./exec-tool.js";
import {
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_MAX_EXEC_OUTPUT_BYTES,
  DEFAULT_MAX_READ_BYTES,
  DEFAULT_MAX_WRITE_BYTES,
} from "./limits.js";
import { createReadTool } from "./read-tool.js";
import type { CoreToolsOptions, CoreToolsSettings } from "./types.js";
import { createWriteTool } from "./write-tool.js";

/**
 * The core tools `read`, `write`, `edit` and `exec` (origin `core`), confined to `options.workspace`, which
 * is created on first use. Every refusal or failure is a tool result with `isError`; `execute` never throws.
 * Throws CONFIG_INVALID for options that are not usable.
 */
export function createCoreTools(options: CoreToolsOptions): ToolDefinition[] {
  const settings = coreToolsSettings(options);
  return [
    createReadTool(settings),
    createWriteTool(settings),
    createEditTool(settings),
    createExecTool(settings),
  ];
}

/** Options with defaults filled in and checked. */
export function coreToolsSettings(options: CoreToolsOptions): CoreToolsSettings {
  if (typeof options?.workspace !== "string" || options.workspace.trim().length === 0) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "createCoreTools needs a workspace directory; set agents.defaults.workspace or pass options.workspace.",
    );
  }
  return {
    workspace: path.resolve(options.workspace),
    maxReadBytes: positive("maxReadBytes", options.maxReadBytes, DEFAULT_MAX_READ_BYTES),
    maxWriteBytes: positive("maxWriteBytes", options.maxWriteBytes, DEFAULT_MAX_WRITE_BYTES),
    execTimeoutMs: positive("execTimeoutMs", options.execTimeoutMs, DEFAULT_EXEC_TIMEOUT_MS),
    maxExecOutputBytes: positive(
      "maxExecOutputBytes",
      options.maxExecOutputBytes,
      DEFAULT_MAX_EXEC_OUTPUT_BYTES,
    ),
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `createCoreTools: ${name} must be a positive whole number (got ${String(value)}).`,
    );
  }
  return value;
}
