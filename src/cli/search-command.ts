import { Command, InvalidArgumentError } from "commander";
import { loadConfig } from "../config/index.js";
import { createToolSearch } from "../index.js";
import { assembleRuntime } from "./assemble-runtime.js";
import { formatCandidates } from "./format-candidates.js";
import { loadCatalogFile } from "./load-catalog-file.js";
import type { CliIo } from "./types.js";

const LIMIT_MESSAGE = "limit must be a positive integer.";

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
      const search = await searchFor(options, io);
      try {
        const candidates = search.search(query, options.limit === undefined ? {} : { limit: options.limit });
        io.stdout(options.json ? `${JSON.stringify(candidates, null, 2)}\n` : formatCandidates(candidates));
      } finally {
        search.close();
      }
    });
}

type SearchOptions = { catalog?: string; config?: string; limit?: number; json?: boolean };

/**
 * Tool Search over the tools in --catalog (with the tools.toolSearch settings of --config, when given), or over
 * the configured catalog (plugins) with its settings.
 */
async function searchFor(options: SearchOptions, io: CliIo) {
  if (options.catalog !== undefined) {
    const loaded = options.config ? await loadConfig({ configPath: options.config }) : undefined;
    return createToolSearch({
      tools: await loadCatalogFile(options.catalog),
      ...(loaded === undefined ? {} : { config: loaded.config.tools?.toolSearch }),
    });
  }
  const runtime = await assembleRuntime({
    ...(options.config ? { configPath: options.config } : {}),
    log: (line) => io.stderr(`${line}\n`),
  });
  return createToolSearch({
    tools: runtime.plugins.tools,
    config: runtime.loaded.config.tools?.toolSearch,
  });
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!/^[0-9]+$/u.test(value.trim()) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidArgumentError(LIMIT_MESSAGE);
  }
  return limit;
}
