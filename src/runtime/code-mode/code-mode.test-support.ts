import type { JsonSchema, ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import type { ExecutionHooks } from "../../core/execution/index.js";
import { createToolSearch, type ToolSearch } from "../../core/tool-search/index.js";
import type { CodeModeOutcome, FinalOutcome } from "./types.js";

/** A plugin-owned tool (a trusted `native` entry) whose execute is `run`. */
export function pluginTool(
  owner: string,
  name: string,
  options: {
    description?: string;
    parameters?: JsonSchema;
    outputSchema?: JsonSchema;
    executionMode?: "parallel" | "sequential";
    run?: (args: unknown) => Promise<ToolResult> | ToolResult;
  } = {},
): ToolDefinition {
  return {
    name,
    origin: { kind: "plugin", owner },
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.parameters === undefined ? {} : { parameters: options.parameters }),
    ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
    ...(options.executionMode === undefined ? {} : { executionMode: options.executionMode }),
    execute: async (args) => (options.run ? options.run(args) : { content: [{ type: "text", text: "ok" }] }),
  };
}

/** A weather plugin: `get_forecast({ city })` answers `{ city, tempC: 21 }` and counts its calls. */
export function weatherTool(): { tool: ToolDefinition; calls: unknown[] } {
  const calls: unknown[] = [];
  const tool = pluginTool("weather", "get_forecast", {
    description: "Get the weather forecast for a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { city: { type: "string" }, tempC: { type: "number" } },
      required: ["city", "tempC"],
      additionalProperties: false,
    },
    run: (args) => {
      calls.push(args);
      const city = (args as { city: string }).city;
      return { content: [{ type: "text", text: `Sunny in ${city}.` }], details: { city, tempC: 21 } };
    },
  });
  return { tool, calls };
}

/** A ToolSearch for Code Mode (`codeModeEnabled: true`) over `tools`. */
export function codeModeToolSearch(tools: readonly ToolDefinition[], hooks?: ExecutionHooks): ToolSearch {
  return createToolSearch({ tools, codeModeEnabled: true, ...(hooks ? { hooks } : {}) });
}

/** The outcome as a finished one, failing the test when the cell is still running. */
export function finished(outcome: CodeModeOutcome): FinalOutcome {
  if (outcome.status === "running") throw new Error(`expected a finished cell, got running ${outcome.runId}`);
  return outcome;
}

/** The value of a completed outcome, failing the test with the outcome otherwise. */
export function completedValue(outcome: CodeModeOutcome): unknown {
  if (outcome.status !== "completed")
    throw new Error(`expected a completed cell, got ${JSON.stringify(outcome)}`);
  return outcome.value;
}

/** The error of a failed outcome, failing the test with the outcome otherwise. */
export function errorOf(outcome: CodeModeOutcome): { code: string; message: string } {
  if (outcome.status !== "failed") throw new Error(`expected a failed cell, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

/** A promise with its resolve function, for gates a test opens by hand. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** True while a process with this id exists. */
export function processExists(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
