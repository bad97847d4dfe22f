import { directoryBudget } from "../../core/directory/index.js";
import type { ToolSearch } from "../../core/tool-search/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { answerBridgeCall } from "./answer-bridge-call.js";
import type { CellChild } from "./cell-child.js";
import { CellPool } from "./cell-pool.js";
import { cellChildLaunch } from "./child-launch.js";
import { MAX_CONCURRENT_CELLS, MAX_SOURCE_CHARS } from "./limits.js";
import { createModelTools } from "./model-tools.js";
import { renderQuickIndex } from "./quick-index.js";
import { resolveCodeModeLimits, resolveYieldMs } from "./resolve-code-mode-limits.js";
import { RunRegistry } from "./run-registry.js";
import type {
  CodeMode,
  CodeModeOptions,
  CodeModeOutcome,
  ExecOptions,
  FinalOutcome,
  WaitOptions,
} from "./types.js";

const CLOSED_MESSAGE = "Code Mode is closed for this run; no cell can run.";
const CANCELLED_MESSAGE = "The cell was cancelled by its caller.";

/**
 * Creates Code Mode for one run (code-mode.md): `exec` runs a JavaScript cell in QuickJS inside a fresh,
 * permission-restricted Node child and answers its bridge calls through the run's ToolSearch; `wait` picks
 * up cells that outlived their yield. Starts the warm pool at once. Throws a ToolsiftError (CONFIG_INVALID)
 * when `toolSearch` is missing or has Tool Search enabled: Code Mode replaces the controls, never joins them.
 */
export function createCodeMode(options: CodeModeOptions): CodeMode {
  const toolSearch = checkToolSearch(options?.toolSearch);
  const limits = resolveCodeModeLimits(options);
  const budget = directoryBudget(options.contextWindowTokens);
  const pool = new CellPool(() => cellChildLaunch(limits), limits.poolSize);
  const runs = new RunRegistry();
  const running = new Set<CellChild>();
  let closed = false;
  pool.fill();

  const startCell = async (source: string, execOptions: ExecOptions): Promise<FinalOutcome> => {
    let child: CellChild;
    try {
      child = await pool.acquire();
    } catch (error) {
      if (closed) return failed("CLOSED", CLOSED_MESSAGE);
      return failed(
        "SANDBOX_UNAVAILABLE",
        `Code Mode could not start its sandbox (${error instanceof Error ? error.message : "unknown reason"}).`,
      );
    }
    const signal = execOptions.signal;
    if (closed || signal?.aborted) {
      child.stop({ code: "CLOSED", message: CLOSED_MESSAGE });
      return closed ? failed("CLOSED", CLOSED_MESSAGE) : failed("CANCELLED", CANCELLED_MESSAGE);
    }
    running.add(child);
    const onAbort = () => child.stop({ code: "CANCELLED", message: CANCELLED_MESSAGE });
    signal?.addEventListener("abort", onAbort, { once: true });
    const target = {
      toolSearch,
      ...(execOptions.toolCallId === undefined ? {} : { toolCallId: execOptions.toolCallId }),
    };
    try {
      return await child.run({
        source,
        timeoutMs: limits.timeoutMs,
        maxBridgeCalls: limits.maxBridgeCalls,
        maxLogBytes: limits.maxLogBytes,
        bridge: (method, args, cellSignal) => answerBridgeCall(target, method, args, cellSignal),
      });
    } finally {
      signal?.removeEventListener("abort", onAbort);
      running.delete(child);
      pool.fill();
    }
  };

  const awaitWithYield = async (
    outcome: Promise<FinalOutcome>,
    yieldMs: number,
    runningAnswer: () => CodeModeOutcome,
  ): Promise<CodeModeOutcome> => {
    let timer: NodeJS.Timeout | undefined;
    const yielded = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), yieldMs);
    });
    const first = await Promise.race([outcome, yielded]);
    clearTimeout(timer);
    return first ?? runningAnswer();
  };

  let active = 0;
  const exec = async (source: unknown, execOptions: ExecOptions = {}): Promise<CodeModeOutcome> => {
    if (closed) return failed("CLOSED", CLOSED_MESSAGE);
    const problem = sourceProblem(source);
    if (problem) return failed("INVALID_REQUEST", problem);
    if (active >= MAX_CONCURRENT_CELLS) {
      return failed(
        "BUSY",
        `${MAX_CONCURRENT_CELLS} cells are already running; wait for one of them (wait with its runId) before starting another.`,
      );
    }
    active += 1;
    const outcome = startCell(source as string, execOptions).finally(() => {
      active -= 1;
    });
    return awaitWithYield(outcome, resolveYieldMs(execOptions.yieldMs), () => ({
      status: "running",
      runId: runs.add(outcome),
    }));
  };

  const wait = async (runId: unknown, waitOptions: WaitOptions = {}): Promise<CodeModeOutcome> => {
    const outcome = typeof runId === "string" ? runs.get(runId) : undefined;
    if (!outcome) {
      if (closed) return failed("CLOSED", CLOSED_MESSAGE);
      return failed(
        "UNKNOWN_RUN",
        `Unknown runId ${JSON.stringify(typeof runId === "string" ? runId.slice(0, 64) : (runId ?? null))}: no running cell has it (its result may already have been returned). Start a new cell with exec.`,
      );
    }
    const answer = await awaitWithYield(outcome, resolveYieldMs(waitOptions.yieldMs), () => ({
      status: "running",
      runId: runId as string,
    }));
    if (answer.status !== "running") runs.delete(runId as string);
    return answer;
  };

  const codeMode: CodeMode = {
    exec: (source, execOptions) => exec(source, execOptions),
    wait: (runId, waitOptions) => wait(runId, waitOptions),
    modelTools: () =>
      createModelTools({
        exec,
        wait,
        limits,
        quickIndex: () => renderQuickIndex(closed ? [] : toolSearch.modelTools(), budget),
      }),
    async close() {
      if (closed) return;
      closed = true;
      pool.close();
      for (const child of running) child.stop({ code: "CLOSED", message: CLOSED_MESSAGE });
      runs.clear();
    },
  };
  return codeMode;
}

function checkToolSearch(toolSearch: ToolSearch | undefined): ToolSearch {
  if (
    typeof toolSearch !== "object" ||
    toolSearch === null ||
    typeof toolSearch.search !== "function" ||
    typeof toolSearch.call !== "function"
  ) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "createCodeMode needs { toolSearch }: the run's createToolSearch result, created with codeModeEnabled: true.",
    );
  }
  if (toolSearch.enabled) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "createCodeMode needs a ToolSearch created with codeModeEnabled: true: Code Mode replaces the Tool Search controls and the two never run together.",
    );
  }
  return toolSearch;
}

function sourceProblem(source: unknown): string | undefined {
  if (typeof source !== "string" || source.trim() === "") {
    return "exec needs { code: string }: the cell's JavaScript, an async function body that returns its value.";
  }
  if (source.length > MAX_SOURCE_CHARS) {
    return `The cell is longer than ${MAX_SOURCE_CHARS} characters; write a shorter cell.`;
  }
  return undefined;
}

function failed(code: string, message: string): FinalOutcome {
  return { status: "failed", error: { code, message }, logs: [] };
}
