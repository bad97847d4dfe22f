import { type ChildProcess, spawn } from "node:child_process";
import type { ChildLaunch } from "./child-launch.js";
import {
  KILL_GRACE_MS,
  MAX_CELL_ERROR_CHARS,
  MAX_STDERR_BYTES,
  MAX_VALUE_BYTES,
  STARTUP_TIMEOUT_MS,
} from "./limits.js";
import { LogBuffer } from "./log-buffer.js";
import { type BridgeMethod, type ChildMessage, encodeParentMessage, readChildMessage } from "./protocol.js";
import type { CellError, FinalOutcome } from "./types.js";

/** The parent's answer to one bridge call: JSON text, or an error the cell sees as a rejected promise. */
export type BridgeReply = { ok: true; value: string } | { ok: false; error: CellError };

/** One cell to run in a child. */
export interface CellRun {
  source: string;
  timeoutMs: number;
  maxBridgeCalls: number;
  maxLogBytes: number;
  /** Answers one bridge call; must not reject. `signal` aborts when the cell ends. */
  bridge(method: BridgeMethod, args: readonly unknown[], signal: AbortSignal): Promise<BridgeReply>;
}

interface ActiveRun {
  readonly request: CellRun;
  readonly logs: LogBuffer;
  readonly controller: AbortController;
  readonly resolve: (outcome: FinalOutcome) => void;
  readonly timer: NodeJS.Timeout;
  calls: number;
}

/** The message of a cell stopped at its wall-clock limit (the child says the same when it stops itself). */
export function timeoutMessage(timeoutMs: number): string {
  return `The cell ran longer than its limit of ${timeoutMs} ms and was stopped; do less per cell, or start long work with a smaller yieldMs and use wait.`;
}

/**
 * The parent's side of one isolated child: starts it, waits for `ready`, runs exactly one cell, answers its
 * bridge calls, and kills it (SIGKILL) when the cell ends. Every message from the child is validated; a
 * message that breaks the protocol, an early exit or the parent's own timer (the cell's timeout plus a grace
 * period: the backstop for a child that does not stop itself) fails the cell, never the parent. Idle
 * children do not keep the parent's event loop alive.
 */
export class CellChild {
  /** Resolves when the child has loaded QuickJS; rejects with an Error saying why it could not start. */
  readonly ready: Promise<void>;
  /** Resolves once the child process is gone (or could not be spawned at all). */
  readonly exited: Promise<void>;
  readonly #child: ChildProcess;
  #state: "starting" | "idle" | "running" | "ended" = "starting";
  #stderr = "";
  #run: ActiveRun | undefined;
  #readyResolve!: () => void;
  #readyReject!: (error: Error) => void;
  readonly #startupTimer: NodeJS.Timeout;

  constructor(launch: ChildLaunch) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.#readyResolve = resolve;
      this.#readyReject = reject;
    });
    this.ready.catch(() => {});
    let markExited!: () => void;
    this.exited = new Promise<void>((resolve) => {
      markExited = resolve;
    });
    this.#child = spawn(launch.command, launch.args, {
      env: {},
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
      windowsHide: true,
    });
    this.#child.stderr?.setEncoding("utf8");
    this.#child.stderr?.on("data", (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-MAX_STDERR_BYTES);
    });
    this.#child.on("message", (raw: unknown) => {
      try {
        this.#receive(raw);
      } catch {
        this.#violation("a message the parent could not handle");
      }
    });
    this.#child.once("error", (error) => {
      if (this.#child.pid === undefined) markExited();
      this.#ended(`it could not be started or reached (${error.message})`);
    });
    this.#child.once("exit", (code, signal) => {
      markExited();
      // Messages sent just before the exit are still in the channel: conclude once it has drained.
      const reason = `it exited (${signal ?? `code ${code}`})`;
      if (this.#child.connected) this.#child.once("disconnect", () => this.#ended(reason));
      else this.#ended(reason);
    });
    this.#startupTimer = setTimeout(() => {
      this.#fatal(`it did not load QuickJS within ${STARTUP_TIMEOUT_MS} ms`);
    }, STARTUP_TIMEOUT_MS);
    this.#startupTimer.unref();
    this.#setReferenced(false);
  }

  /** True while the child can still take a cell (starting or ready, not used yet). */
  get usable(): boolean {
    return this.#state === "starting" || this.#state === "idle";
  }

  /** The child's process id (for tests that check it is gone). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Marks the child as taken: from now on it keeps the parent's event loop alive until it ends. */
  claim(): void {
    if (this.#state !== "ended") this.#setReferenced(true);
  }

  /** Runs the one cell of this child; resolves with its final outcome, never rejects. Call after `ready`. */
  run(request: CellRun): Promise<FinalOutcome> {
    if (this.#state !== "idle") {
      return Promise.resolve(
        failed("SANDBOX_FAILURE", "The cell's sandbox was not ready; run the cell again."),
      );
    }
    this.#state = "running";
    this.#setReferenced(true);
    return new Promise<FinalOutcome>((resolve) => {
      this.#run = {
        request,
        logs: new LogBuffer(request.maxLogBytes),
        controller: new AbortController(),
        resolve,
        calls: 0,
        timer: setTimeout(
          () => this.#settle(failed("TIMEOUT", timeoutMessage(request.timeoutMs))),
          request.timeoutMs + KILL_GRACE_MS,
        ),
      };
      this.#send(encodeParentMessage({ type: "run", source: request.source, timeoutMs: request.timeoutMs }));
    });
  }

  /** Stops the child: a running cell fails with this error (CANCELLED, CLOSED, …); an idle child just ends. */
  stop(error: CellError): void {
    if (this.#run) this.#settle(failed(error.code, error.message));
    else this.#fatal("it was stopped");
  }

  #receive(raw: unknown): void {
    if (this.#state === "ended") return;
    const read = readChildMessage(raw);
    if (!read.ok) {
      this.#violation(read.reason);
      return;
    }
    const message = read.message;
    if (message.type === "ready") {
      if (this.#state !== "starting") {
        this.#violation("a second ready message");
        return;
      }
      clearTimeout(this.#startupTimer);
      this.#state = "idle";
      this.#readyResolve();
      return;
    }
    const run = this.#run;
    if (!run) {
      this.#violation(`a ${message.type} message while no cell runs`);
      return;
    }
    if (message.type === "log") run.logs.add(message.level, message.text);
    else if (message.type === "call") this.#call(run, message);
    else this.#done(message);
  }

  #call(run: ActiveRun, message: Extract<ChildMessage, { type: "call" }>): void {
    run.calls += 1;
    if (run.calls > run.request.maxBridgeCalls) {
      this.#settle(
        failed(
          "BRIDGE_CALL_LIMIT",
          `The cell made more than ${run.request.maxBridgeCalls} tool bridge calls and was stopped; search once, then call the tools you need.`,
        ),
      );
      return;
    }
    const args = parseJson(message.args);
    if (!Array.isArray(args) || args.length < 1 || args.length > 2) {
      this.#violation("bridge arguments that are not a JSON array of one or two values");
      return;
    }
    void run.request.bridge(message.method, args, run.controller.signal).then((reply) => {
      if (this.#run !== run) return;
      this.#send(encodeParentMessage({ type: "reply", id: message.id, ...reply }));
    });
  }

  #done(message: Extract<ChildMessage, { type: "done" }>): void {
    if (!message.ok) {
      this.#settle(failed(message.error.code, message.error.message));
    } else if (Buffer.byteLength(message.value) > MAX_VALUE_BYTES) {
      this.#settle(
        failed(
          "INVALID_VALUE",
          `The cell's value is larger than ${MAX_VALUE_BYTES} bytes of JSON; return a summary.`,
        ),
      );
    } else {
      const value = parseJson(message.value);
      if (value === NOT_JSON) this.#violation("a value that is not JSON");
      else this.#settle({ status: "completed", value, logs: [] });
    }
  }

  #violation(reason: string): void {
    if (this.#run) {
      this.#settle(
        failed(
          "SANDBOX_FAILURE",
          `The cell's sandbox broke the bridge protocol (${reason}) and was stopped; run the cell again.`,
        ),
      );
    } else {
      this.#fatal(`it broke the bridge protocol (${reason})`);
    }
  }

  #ended(reason: string): void {
    if (this.#state === "ended") return;
    if (this.#run) {
      const outOfMemory = /heap out of memory|allocation failed/iu.test(this.#stderr);
      this.#settle(
        outOfMemory
          ? failed(
              "MEMORY_LIMIT",
              "The cell's sandbox ran out of memory and was stopped; keep less data in memory.",
            )
          : failed(
              "SANDBOX_FAILURE",
              `The cell's sandbox process ended unexpectedly (${reason}); run the cell again.`,
            ),
      );
      return;
    }
    this.#fatal(reason);
  }

  /** Ends a child that runs no cell: `ready` rejects (if still pending) with the reason. */
  #fatal(reason: string): void {
    const wasStarting = this.#state === "starting";
    this.#state = "ended";
    clearTimeout(this.#startupTimer);
    this.#kill();
    if (wasStarting) {
      const detail = this.#stderr.trim().split("\n").slice(-3).join(" | ");
      this.#readyReject(
        new Error(`The Code Mode sandbox child could not start: ${reason}${detail ? `: ${detail}` : ""}`),
      );
    }
  }

  #settle(outcome: FinalOutcome): void {
    const run = this.#run;
    if (!run || this.#state === "ended") return;
    this.#state = "ended";
    this.#run = undefined;
    clearTimeout(run.timer);
    run.controller.abort();
    this.#kill();
    const logs = run.logs.lines();
    if (outcome.status === "completed") run.resolve({ ...outcome, logs });
    else run.resolve({ status: "failed", error: boundedError(outcome.error), logs });
  }

  #send(text: string): void {
    if (!this.#child.connected) return;
    // A failed send means the child is going away: its exit (after the channel drained, so a `done` it sent
    // first still counts) settles the cell, and the timer is the backstop if it somehow lingers.
    this.#child.send(text, () => {});
  }

  #kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill("SIGKILL");
  }

  #setReferenced(referenced: boolean): void {
    const handles = [
      this.#child,
      this.#child.channel,
      this.#child.stderr as { ref?(): void; unref?(): void } | null,
    ];
    for (const handle of handles) {
      if (referenced) handle?.ref?.();
      else handle?.unref?.();
    }
  }
}

const NOT_JSON = Symbol("not JSON");

/** JSON.parse that answers NOT_JSON instead of throwing (JSON.parse never pollutes prototypes). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function failed(code: string, message: string): FinalOutcome {
  return { status: "failed", error: { code, message }, logs: [] };
}

function boundedError(error: CellError): CellError {
  if (error.message.length <= MAX_CELL_ERROR_CHARS) return error;
  return { code: error.code, message: `${error.message.slice(0, MAX_CELL_ERROR_CHARS - 3)}...` };
}
