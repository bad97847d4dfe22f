import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ToolSearch } from "../../core/tool-search/index.js";

/** Options of createCodeMode (the library contract of code-mode.md, plus documented extensions). */
export interface CodeModeOptions {
  /** The run's createToolSearch result, created with `codeModeEnabled: true`: cells search, describe and call through it. */
  toolSearch: ToolSearch;
  /** Wall-clock limit of one cell in ms. Default 10,000; clamped to 1,000..60,000. */
  timeoutMs?: number;
  /** Memory limit of a cell's QuickJS runtime in bytes. Default 64 MiB; clamped to 8 MiB..512 MiB. */
  memoryLimitBytes?: number;
  /** Bridge calls allowed per cell; the next one fails the cell. Default 256; clamped to 1..10,000. */
  maxBridgeCalls?: number;
  /** Captured console output per cell in UTF-8 bytes; later output is dropped behind a marker. Default 16 KiB. */
  maxLogBytes?: number;
  /** Pre-started children kept warm. Default 1; clamped to 1..2. */
  poolSize?: number;
  /** Extension: scales exec's quick index budget like the directory's. Default: 18,000 characters. */
  contextWindowTokens?: number;
}

/** Stable error codes of a failed cell. A cell that lets a tool error escape fails with that tool error's code. */
export type CodeModeErrorCode =
  | "INVALID_REQUEST"
  | "CELL_ERROR"
  | "INVALID_VALUE"
  | "TIMEOUT"
  | "MEMORY_LIMIT"
  | "BRIDGE_CALL_LIMIT"
  | "SANDBOX_FAILURE"
  | "SANDBOX_UNAVAILABLE"
  | "UNKNOWN_RUN"
  | "BUSY"
  | "CANCELLED"
  | "CLOSED";

/** Why a cell failed: a stable code (a CodeModeErrorCode, or a tool error's code) and a message for the model. */
export interface CellError {
  code: string;
  message: string;
}

/** The end of a cell, or a note that it is still running. */
export type CodeModeOutcome =
  | { status: "completed"; value: unknown; logs: string[] }
  | { status: "failed"; error: CellError; logs: string[] }
  | { status: "running"; runId: string };

/** A finished cell. */
export type FinalOutcome = Exclude<CodeModeOutcome, { status: "running" }>;

/** Options of exec. */
export interface ExecOptions {
  /** Answer `{ status: "running", runId }` if the cell is still running after this many ms. Default 10,000. */
  yieldMs?: number;
  /** Extension: tags the cell's tool calls (session activity names it as their parent call). */
  toolCallId?: string;
  /** Extension: aborting it stops the cell (its pending tool calls are cancelled). */
  signal?: AbortSignal;
}

/** Options of wait. */
export interface WaitOptions {
  /** Answer `{ status: "running", runId }` again if the cell is still running after this many ms. Default 10,000. */
  yieldMs?: number;
}

/** Code Mode for one run: JavaScript cells over the run's catalog, each in its own isolated child. */
export interface CodeMode {
  /** Runs one cell. Never throws: every problem is a failed outcome. */
  exec(source: string, options?: ExecOptions): Promise<CodeModeOutcome>;
  /** Waits for a cell that outlived its yield. An unknown or already answered runId is a failed outcome. */
  wait(runId: string, options?: WaitOptions): Promise<CodeModeOutcome>;
  /** The `exec` and `wait` ToolDefinitions for a runner; their execute never throws. */
  modelTools(): ToolDefinition[];
  /** Kills running cells and the warm pool; later calls answer a failed outcome (CLOSED). */
  close(): Promise<void>;
}
