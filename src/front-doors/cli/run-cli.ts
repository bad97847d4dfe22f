import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createConfigCommand } from "./create-config-command.js";
import { createDoctorCommand } from "./doctor-command.js";
import { EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE } from "./exit-codes.js";
import { createGatewayCommand } from "./gateway-command.js";
import { createInitCommand } from "./init-command.js";
import { createMcpCommand } from "./mcp-command.js";
import { createMockOpenAICommand } from "./mock-openai-command.js";
import { createQaCommand } from "./qa-command.js";
import { createSearchCommand } from "./search-command.js";
import { createSessionsCommand } from "./sessions-command.js";
import { createStateCommand } from "./state-command.js";
import { createToolsCommand } from "./tools-command.js";
import type { CliIo } from "./types.js";

/** Commander outcomes that are not errors: help or the version was asked for and printed. */
const PRINTED_ON_REQUEST: ReadonlySet<string> = new Set(["commander.helpDisplayed", "commander.version"]);

/**
 * Runs the `toolsift` command line with `argv` (the arguments after the program name) and returns the exit
 * code: 0 success, 1 failure (message on stderr, never a stack trace), 2 usage error. Never throws and
 * never exits the process, so it can run in-process in tests. Every command is declared here (so help and
 * usage errors need nothing else) and imports its implementation only when it runs.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = new Command("toolsift")
    .description("Tool Search for LLM agents: find the right tool among hundreds, as the model would.")
    .version(packageVersion(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError("(run with --help for usage)")
    .showSuggestionAfterError(true);
  const log = (line: string) => io.stderr(`${line}\n`);
  const commands = [
    createGatewayCommand(io, {
      start: async (options) =>
        (await import("./start-configured-gateway.js")).startConfiguredGateway(options, log),
      ...(io.exit === undefined ? {} : { exit: io.exit }),
    }),
    createMockOpenAICommand(io),
    createSearchCommand(io),
    createInitCommand(io),
    createToolsCommand(io),
    createSessionsCommand(io),
    createStateCommand(io),
    createQaCommand(io, { isTerminal: io.isTerminal === true }),
    createConfigCommand(io),
    createDoctorCommand(io),
    createMcpCommand(io),
  ];
  for (const command of commands) program.addCommand(inherit(command, program));

  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT_SUCCESS;
  } catch (error) {
    if (error instanceof CommanderError)
      return PRINTED_ON_REQUEST.has(error.code) ? EXIT_SUCCESS : EXIT_USAGE;
    const message = isToolsiftError(error) || error instanceof Error ? error.message : String(error);
    io.stderr(`error: ${message}\n`);
    return EXIT_FAILURE;
  }
}

/** addCommand does not pass settings down: copy exitOverride and the output routing to every subcommand. */
function inherit(command: Command, program: Command): Command {
  command.copyInheritedSettings(program);
  for (const sub of command.commands) inherit(sub, command);
  return command;
}

/** The package version, read next to the build (`dist/front-doors/cli` and `src/front-doors/cli` both sit two levels down). */
function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    return typeof manifest.version === "string" ? manifest.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}
