import { realpath } from "node:fs/promises";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { ensureWorkspace } from "./open-workspace-file.js";
import { readArguments } from "./read-arguments.js";
import { type CommandOutcome, runCommand } from "./run-command.js";
import { errorResult, failureText } from "./tool-result.js";
import type { CoreToolsSettings } from "./types.js";

/** `LANG` for commands when the host process has none. */
const FALLBACK_EXEC_LANG = "C.UTF-8";

/** `PATH` for commands when the host process has none. */
const FALLBACK_EXEC_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * `exec`: a shell command in the workspace with a timeout (the whole process group is killed) and an output
 * cap. Commands see only PATH, HOME and LANG from the host environment, so keys in it do not leak.
 */
export function createExecTool(settings: CoreToolsSettings): ToolDefinition {
  return {
    name: "exec",
    label: "Run command",
    description:
      "Run a shell command (/bin/sh -c) in the workspace folder and get its exit code and combined " +
      `stdout/stderr (cut at ${settings.maxExecOutputBytes} bytes). It is stopped, with its child processes, ` +
      `after timeoutMs (default and maximum ${settings.execTimeoutMs} ms). Processes left in the background ` +
      "are stopped when the command returns. The environment holds only PATH, HOME and LANG.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", minLength: 1, description: "The shell command line to run." },
        timeoutMs: {
          type: "integer",
          minimum: 1,
          maximum: settings.execTimeoutMs,
          description: `Stop the command after this many ms. Default ${settings.execTimeoutMs}.`,
        },
      },
      required: ["command"],
      additionalProperties: false,
    },
    origin: { kind: "core", owner: "core" },
    executionMode: "sequential",
    execute: async (args, context) => {
      const parsed = readArguments("exec", args, {
        command: { type: "string", required: true },
        timeoutMs: { type: "integer", minimum: 1 },
      });
      if (!parsed.ok) return errorResult(parsed.message);
      const command = parsed.values.command as string;
      if (command.trim().length === 0)
        return errorResult("exec: command is empty; give a shell command line.");
      const timeoutMs = Math.min(
        (parsed.values.timeoutMs as number | undefined) ?? settings.execTimeoutMs,
        settings.execTimeoutMs,
      );

      const workspaceProblem = await ensureWorkspace(settings.workspace);
      if (workspaceProblem !== undefined) return errorResult(workspaceProblem);
      let cwd: string;
      try {
        cwd = await realpath(settings.workspace);
      } catch (error) {
        return errorResult(`The workspace cannot be used (${failureText(error)}).`);
      }
      const outcome = await runCommand({
        command,
        cwd,
        env: commandEnvironment(cwd),
        timeoutMs,
        maxOutputBytes: settings.maxExecOutputBytes,
        ...(context?.signal ? { signal: context.signal } : {}),
      });
      return {
        content: [{ type: "text", text: outcomeText(outcome, timeoutMs) }],
        details: { exitCode: outcome.exitCode, timedOut: outcome.timedOut, truncated: outcome.truncated },
        ...(isFailure(outcome) ? { isError: true } : {}),
      };
    },
  };
}

/** The whole environment a command gets: PATH, HOME and LANG of the host, with fallbacks. */
export function commandEnvironment(workspace: string): Record<string, string> {
  return {
    PATH: process.env.PATH || FALLBACK_EXEC_PATH,
    HOME: process.env.HOME || workspace,
    LANG: process.env.LANG || FALLBACK_EXEC_LANG,
  };
}

function isFailure(outcome: CommandOutcome): boolean {
  return outcome.timedOut || outcome.cancelled || outcome.startError !== undefined || outcome.exitCode !== 0;
}

function outcomeText(outcome: CommandOutcome, timeoutMs: number): string {
  let status: string;
  if (outcome.startError !== undefined) status = `The command could not start: ${outcome.startError}`;
  else if (outcome.timedOut)
    status = `Timed out after ${timeoutMs} ms; the command and its child processes were killed.`;
  else if (outcome.cancelled) status = "Cancelled; the command and its child processes were killed.";
  else if (outcome.exitCode === null) status = `Killed by signal ${outcome.signal ?? "unknown"}.`;
  else status = `Exit code ${outcome.exitCode}.`;
  const output = outcome.output.length > 0 ? `\n${outcome.output}` : "\n(no output)";
  const cut = outcome.truncated
    ? `\n[Output cut at ${Buffer.byteLength(outcome.output)} of ${outcome.outputBytes} bytes; redirect to a file and read it in parts.]`
    : "";
  return `${status}${output}${cut}`;
}
