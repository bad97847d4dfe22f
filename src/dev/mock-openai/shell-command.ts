import { isObjectRecord } from "../../shared/schema/index.js";

/** `cmd=<command>`: the rest of its line (after whitespace or at a line's start). */
const COMMAND = /(?:^|[ \t])cmd=([^\n]*)/mu;

/** Quotes a command may be wrapped in (removed when the value both starts and ends with the same one). */
const QUOTES = ["`", '"', "'"];

/** Argument names that carry a shell command: Claude Code's `Bash` has `command`, Codex's `exec_command` `cmd`. */
const COMMAND_ARGUMENTS = ["cmd", "command"] as const;

/**
 * Splits a prompt into its part before `cmd=` (where `target=` and `and=` are read) and the command: the
 * rest of the `cmd=` line, trimmed, without one pair of surrounding backquotes or quotes. No `cmd=`, or an
 * empty one, gives no command.
 */
export function readCommand(text: string): { before: string; command?: string } {
  const match = COMMAND.exec(text);
  if (match === null) return { before: text };
  const before = text.slice(0, match.index);
  let command = (match[1] ?? "").trim();
  for (const quote of QUOTES)
    if (command.length >= 2 && command.startsWith(quote) && command.endsWith(quote))
      command = command.slice(1, -1);
  return command.length === 0 ? { before } : { before, command };
}

/**
 * Arguments for a shell tool with the prompt's command filled in: into `cmd` or `command`, whichever the
 * built arguments or the tool's schema already have (`cmd` first), else `command`.
 */
export function withCommand(
  args: Record<string, unknown>,
  command: string,
  parameters?: unknown,
): Record<string, unknown> {
  const properties = isObjectRecord(parameters) ? parameters.properties : undefined;
  const key =
    COMMAND_ARGUMENTS.find((name) => Object.hasOwn(args, name)) ??
    COMMAND_ARGUMENTS.find((name) => isObjectRecord(properties) && Object.hasOwn(properties, name)) ??
    "command";
  const filled = { ...args };
  Object.defineProperty(filled, key, {
    value: command,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return filled;
}
