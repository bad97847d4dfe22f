import type { ToolDefinition } from "../../core/catalog/index.js";
import { createHostToolSearch, createToolSearch, type ToolSearch } from "../../core/tool-search/index.js";
import { explainNoMatch, type SearchSource } from "./explain-no-match.js";
import { formatCandidates } from "./format-candidates.js";
import { loadCatalogFile } from "./load-catalog-file.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift search`, as commander parsed them (`--limit` already checked). */
export type SearchOptions = { catalog?: string; config?: string; limit?: number; json?: boolean };

/**
 * What `toolsift search` does once its arguments are valid: ranks the tools for the query and prints them.
 * Nothing found is still exit 0, with the reason: how many tools were searched and why none matched (on
 * stdout in text mode, on stderr with `--json`, whose stdout stays `[]`).
 */
export async function runSearch(options: SearchOptions & { query: string }, io: CliIo): Promise<void> {
  const { search, tools, source } = await searchFor(options, io);
  try {
    const candidates = search.search(
      options.query,
      options.limit === undefined ? {} : { limit: options.limit },
    );
    const why = candidates.length === 0 ? explainNoMatch(tools, options.query, source) : [];
    if (options.json) {
      io.stdout(`${JSON.stringify(candidates, null, 2)}\n`);
      if (why.length > 0) io.stderr(`${why.join("\n")}\n`);
    } else io.stdout(why.length > 0 ? `${why.join("\n")}\n` : formatCandidates(candidates));
  } finally {
    search.close();
  }
}

/** The Tool Search of one `toolsift search`, with the tools it holds and where they came from. */
type SearchSetup = { search: ToolSearch; tools: readonly ToolDefinition[]; source: SearchSource };

/**
 * Tool Search over the tools in --catalog (with the tools.toolSearch settings of --config, when given), or over
 * the configured catalog (plugins) with its settings. The config and the runtime are imported only on the
 * paths that use them, so `search --catalog FILE` loads neither.
 */
async function searchFor(options: SearchOptions, io: CliIo): Promise<SearchSetup> {
  if (options.catalog !== undefined) {
    const loaded = options.config
      ? await (await import("../../runtime/config/index.js")).loadConfig({ configPath: options.config })
      : undefined;
    const tools = await loadCatalogFile(options.catalog);
    const search = createToolSearch({
      tools,
      ...(loaded === undefined ? {} : { config: loaded.config.tools?.toolSearch }),
    });
    return { search, tools, source: { kind: "catalog", file: options.catalog } };
  }
  const { loadRunEnvironment } = await import("./assemble-runtime.js");
  const { loaded, environment } = await loadRunEnvironment({
    ...(options.config ? { configPath: options.config } : {}),
    log: (line) => io.stderr(`${line}\n`),
    // Searching keeps no state: a fleet's database is not touched.
    localStateOnly: true,
  });
  const tools = environment.plugins.tools;
  const search = createHostToolSearch({ tools, settings: environment.toolSearch });
  return {
    search,
    tools,
    source: { kind: "config", file: loaded.path, exists: loaded.exists },
  };
}
