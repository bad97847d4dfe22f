import { CONTROL_NAMES } from "../../core/catalog/index.js";
import type { SessionEvent } from "./types.js";

/** A tool the model reached, as the log recorded it. */
export interface SessionToolRef {
  id: string;
  name: string;
  source: "native" | "mcp" | "client";
}

/** What one run (one user turn) of a session did. */
export interface SessionRunSummary {
  /** Undefined for events written without a run id. */
  runId: string | undefined;
  /** `declaredToolCount` of the run's first model request: how many tool schemas the model saw up front. */
  schemasDeclaredUpFront: number | undefined;
  /** The tool names that first request declared, in order. */
  declaredToolsUpFront: string[];
  /** Model requests. */
  requests: number;
  /** `tool_search` results. */
  searches: number;
  /** `tool_describe` results. */
  describes: number;
  /** `tool_call` results. */
  calls: number;
  /** Results of tools the model called by their own name (visible, direct-only or directory-mode calls). */
  directCalls: number;
  /** The last target of a `tool_call` (its display-only activity) or the last direct catalog tool result. */
  finalTool: SessionToolRef | undefined;
  /** From the run's `run-summary`, when written. */
  status: "completed" | "requires_action" | "failed" | "incomplete" | undefined;
  /** The `run-summary`'s error (`CODE: message`), for a run that failed or stopped short. */
  error?: string;
}

/** What a session log answers on its own (the questions of `describe-and-call.md` "Session activity"). */
export interface SessionSummary {
  /** Of the last run (see SessionRunSummary). */
  schemasDeclaredUpFront: number | undefined;
  /** Of the last run. */
  declaredToolsUpFront: string[];
  /** Totals over every run. */
  searches: number;
  describes: number;
  calls: number;
  directCalls: number;
  /** The last tool reached in the whole session. */
  finalTool: SessionToolRef | undefined;
  /** Model requests over every run. */
  requests: number;
  /** User turns: the number of runs. */
  turns: number;
  /** Per run, in the order the runs appear in the log. */
  runs: SessionRunSummary[];
}

const SOURCES: ReadonlySet<string> = new Set(["native", "mcp", "client"]);

function isSource(value: unknown): value is SessionToolRef["source"] {
  return typeof value === "string" && SOURCES.has(value);
}

function emptyRun(runId: string | undefined): SessionRunSummary {
  return {
    runId,
    schemasDeclaredUpFront: undefined,
    declaredToolsUpFront: [],
    requests: 0,
    searches: 0,
    describes: 0,
    calls: 0,
    directCalls: 0,
    finalTool: undefined,
    status: undefined,
  };
}

/** A control result, unless it is an ordinary tool that happens to be named like one (Tool Search off). */
function controlName(event: { name: string; toolId?: string }): string | undefined {
  if (!CONTROL_NAMES.has(event.name)) return undefined;
  if (typeof event.toolId === "string" && event.toolId.endsWith(`:${event.name}`)) return undefined;
  return event.name;
}

function record(run: SessionRunSummary, event: SessionEvent): void {
  switch (event.type) {
    case "model-request":
      run.requests += 1;
      if (run.requests === 1) {
        run.schemasDeclaredUpFront =
          typeof event.declaredToolCount === "number" ? event.declaredToolCount : undefined;
        run.declaredToolsUpFront = Array.isArray(event.declaredTools)
          ? event.declaredTools.filter((name): name is string => typeof name === "string")
          : [];
      }
      return;
    case "tool-result": {
      const control = controlName(event);
      if (control === "tool_search") run.searches += 1;
      else if (control === "tool_describe") run.describes += 1;
      else if (control === "tool_call") run.calls += 1;
      else {
        run.directCalls += 1;
        if (typeof event.toolId === "string" && isSource(event.source)) {
          run.finalTool = { id: event.toolId, name: event.name, source: event.source };
        }
      }
      return;
    }
    case "target-activity":
      if (typeof event.toolId === "string" && typeof event.name === "string" && isSource(event.source)) {
        run.finalTool = { id: event.toolId, name: event.name, source: event.source };
      }
      return;
    case "run-summary":
      run.status = event.status;
      if (typeof event.error === "string") run.error = event.error;
      return;
    default:
      return;
  }
}

/**
 * Answers from a session log alone: how many tool schemas the model saw up front (per run, and for the
 * last run), how many searches, describes and calls it made, which tool it finally reached and whether
 * that was native, MCP or client. Events are grouped into runs by `runId`; the header is ignored.
 */
export function summarizeSession(events: readonly SessionEvent[]): SessionSummary {
  const runs = new Map<string | undefined, SessionRunSummary>();
  let finalTool: SessionToolRef | undefined;
  for (const event of events) {
    if (typeof event !== "object" || event === null || event.type === "session") continue;
    const runId = typeof event.runId === "string" ? event.runId : undefined;
    let run = runs.get(runId);
    if (!run) {
      run = emptyRun(runId);
      runs.set(runId, run);
    }
    const before = run.finalTool;
    record(run, event);
    if (run.finalTool !== before) finalTool = run.finalTool;
  }
  const list = [...runs.values()];
  const last = list[list.length - 1];
  const total = (key: "searches" | "describes" | "calls" | "directCalls" | "requests"): number =>
    list.reduce((sum, run) => sum + run[key], 0);
  return {
    schemasDeclaredUpFront: last?.schemasDeclaredUpFront,
    declaredToolsUpFront: last ? [...last.declaredToolsUpFront] : [],
    searches: total("searches"),
    describes: total("describes"),
    calls: total("calls"),
    directCalls: total("directCalls"),
    finalTool,
    requests: total("requests"),
    turns: list.length,
    runs: list,
  };
}
