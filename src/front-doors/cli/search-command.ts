import { Command, InvalidArgumentError } from "commander";
import type { SearchOptions } from "./search-action.js";
import type { CliIo } from "./types.js";

const LIMIT_MESSAGE = "limit must be a positive integer.";

const CATALOG_HELP = `
FILE holds tool definitions in any of these forms (one form per item; items may mix):
  - a JSON array, or JSON lines, of { "name", "description", "parameters", "origin"? }
  - an OpenAI tools array: { "type": "function", "function": { "name", "description", "parameters" } }
    or the Responses form { "type": "function", "name", "description", "parameters" }
  - an MCP tools/list result: { "tools": [{ "name", "description", "inputSchema" }] }
    (MCP tools are owned by the file's base name: calendar.json gives mcp:calendar:<tool>)

Examples (catalog.json: the example catalog toolsift init writes):
  toolsift search "look up the price of bitcoin" --catalog catalog.json
  toolsift search "schedule a meeting" --catalog catalog.json --limit 3 --json

Exit codes: 0 success (also when nothing matches), 1 unreadable or invalid file, 2 usage error.`;

/** The `search` command: ranks the tools of a catalog file for a query, exactly as `tool_search` would. */
export function createSearchCommand(io: CliIo): Command {
  return new Command("search")
    .description("search a catalog of tools as the model would, and print the ranked candidates")
    .argument("<query...>", "what to look for, in English (several words may be given unquoted)")
    .option("--catalog <file>", "search the tools in FILE (see below) instead of the configured catalog")
    .option(
      "--config <file>",
      "config file (JSON5) whose plugins make the configured catalog (with --catalog: its tools.toolSearch limits)",
    )
    .option("--limit <n>", "number of results (default 8, capped at 20)", parseLimit)
    .option("--json", "print the exact candidate array the model would see, as JSON")
    .addHelpText("after", CATALOG_HELP)
    .action(async (words: string[], options: SearchOptions, command: Command) => {
      const query = words.join(" ");
      if (query.trim().length === 0) command.error("error: the query must not be blank", { exitCode: 2 });
      const { runSearch } = await import("./search-action.js");
      await runSearch({ ...options, query }, io);
    });
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!/^[0-9]+$/u.test(value.trim()) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidArgumentError(LIMIT_MESSAGE);
  }
  return limit;
}
