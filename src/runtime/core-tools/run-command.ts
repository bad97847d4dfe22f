import { spawn } from "node:child_process";
import { decodeUtf8 } from "./utf8-text.js";

/** The shell `exec` runs commands with. */
const EXEC_SHELL = "/bin/sh";

/** Inputs of {@link runCommand}. */
export interface RunCommandOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

/** How a command ended. */
export interface CommandOutcome {
  /** The shell's exit code; null when it was killed (timeout, cancel) or never started. */
  exitCode: number | null;
  /** The signal that ended the shell, if one did. */
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Combined stdout and stderr in arrival order, cut at `maxOutputBytes`. */
  output: string;
  truncated: boolean;
  /** All output bytes produced, kept or not. */
  outputBytes: number;
  /** Why the shell could not start, when it could not. */
  startError?: string;
}

/**
 * Runs `command` with `/bin/sh -c` in its own process group. At the timeout, on abort, and as soon as the
 * shell exits, the whole group is killed (SIGKILL), so neither a hung command nor a background child
 * outlives the call. Never rejects.
 */
export function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let outputBytes = 0;
    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let settled = false;

    const child = spawn(EXEC_SHELL, ["-c", options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    };
    const onAbort = (): void => {
      cancelled = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    const collect = (chunk: Buffer): void => {
      outputBytes += chunk.length;
      const room = options.maxOutputBytes - keptBytes;
      if (room <= 0) return;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      kept.push(piece);
      keptBytes += piece.length;
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);

    const finish = (startError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({
        exitCode,
        signal: exitSignal,
        timedOut,
        cancelled,
        output: decodeUtf8(Buffer.concat(kept)),
        truncated: outputBytes > keptBytes,
        outputBytes,
        ...(startError === undefined ? {} : { startError }),
      });
    };
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Background children still in the group would hold the pipes open; the command is over.
      killGroup();
    });
    child.on("close", () => finish());
    child.on("error", (error) => {
      killGroup();
      finish(error.message);
    });
  });
}
