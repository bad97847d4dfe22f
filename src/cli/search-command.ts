import { Command, InvalidArgumentError } from "commander";
import { createToolSearch } from "../index.js";
import { formatCandidates } from "./format-candidates.js";
import { loadCatalogFile } from "./load-catalog-file.js";
import type { CliIo } from "./types.js";

const LIMIT_MESSAGE = "limit must be a positive integer.";
const NO_CATALOG_MESSAGE =
  "error: search needs --catalog FILE for now: searching the configured catalog arrives with the gateway.\n" +
  "usage: toolsift search <query> --catalog FILE [--limit N] [--json]";

const CATALOG_HELP = `
FILE holds tool definitions in any of these forms (one form per item; items may mix):
  - a JSON array, or JSON lines, of { "name", "description", "parameters", "origin"? }
  - an OpenAI tools array: { "type": "function", "function": { "name", "description", "parameters" } }
    or the Responses form { "type": "function", "name", "description", "parameters" }
  - an MCP tools/list result: { "tools": [{ "name", "description", "inputSchema" }] }
    (MCP tools are owned by the file's base name: calendar.json gives mcp:calendar:<tool>)

Examples:
  toolsift search "look up the price of bitcoin" --catalog examples/catalog.json
  toolsift search "schedule a meeting" --catalog examples/catalog.json --limit 3 --json

Exit codes: 0 success (also when nothing matches), 1 unreadable or invalid file, 2 usage error.`;

/** The `search` command: ranks the tools of a catalog file for a query, exactly as `tool_search` would. */
export function createSearchCommand(io: CliIo): Command {
  return new Command("search")
    .description("search a catalog of tools as the model would, and print the ranked candidates")
    .argument("<query...>", "what to look for, in English (several words may be given unquoted)")
    .option("--catalog <file>", "search the tools in FILE (see below for the formats)")
    .option("--limit <n>", "number of results (default 8, capped at 20)", parseLimit)
    .option("--json", "print the exact candidate array the model would see, as JSON")
    .addHelpText("after", CATALOG_HELP)
    .action(async (words: string[], options: SearchOptions, command: Command) => {
      const query = words.join(" ");
      if (query.trim().length === 0) command.error("error: the query must not be blank", { exitCode: 2 });
      if (options.catalog === undefined) command.error(NO_CATALOG_MESSAGE, { exitCode: 2 });
      const tools = await loadCatalogFile(options.catalog);
      const search = createToolSearch({ tools });
      try {
        const candidates = search.search(query, options.limit === undefined ? {} : { limit: options.limit });
        io.stdout(options.json ? `${JSON.stringify(candidates, null, 2)}\n` : formatCandidates(candidates));
      } finally {
        search.close();
      }
    });
}

type SearchOptions = { catalog?: string; limit?: number; json?: boolean };

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!/^[0-9]+$/u.test(value.trim()) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidArgumentError(LIMIT_MESSAGE);
  }
  return limit;
}
