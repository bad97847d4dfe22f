import { createToolSearch, type ToolSearch } from "../tool-search/index.js";
import { formatCandidates } from "./format-candidates.js";
import { loadCatalogFile } from "./load-catalog-file.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift search`, as commander parsed them (`--limit` already checked). */
export type SearchOptions = { catalog?: string; config?: string; limit?: number; json?: boolean };

/** What `toolsift search` does once its arguments are valid: ranks the tools for the query and prints them. */
export async function runSearch(options: SearchOptions & { query: string }, io: CliIo): Promise<void> {
  const search = await searchFor(options, io);
  try {
    const candidates = search.search(
      options.query,
      options.limit === undefined ? {} : { limit: options.limit },
    );
    io.stdout(options.json ? `${JSON.stringify(candidates, null, 2)}\n` : formatCandidates(candidates));
  } finally {
    search.close();
  }
}

/**
 * Tool Search over the tools in --catalog (with the tools.toolSearch settings of --config, when given), or over
 * the configured catalog (plugins) with its settings. The config and the runtime are imported only on the
 * paths that use them, so `search --catalog FILE` loads neither.
 */
async function searchFor(options: SearchOptions, io: CliIo): Promise<ToolSearch> {
  if (options.catalog !== undefined) {
    const loaded = options.config
      ? await (await import("../config/index.js")).loadConfig({ configPath: options.config })
      : undefined;
    return createToolSearch({
      tools: await loadCatalogFile(options.catalog),
      ...(loaded === undefined ? {} : { config: loaded.config.tools?.toolSearch }),
    });
  }
  const { assembleRuntime } = await import("./assemble-runtime.js");
  const runtime = await assembleRuntime({
    ...(options.config ? { configPath: options.config } : {}),
    log: (line) => io.stderr(`${line}\n`),
  });
  return createToolSearch({
    tools: runtime.plugins.tools,
    config: runtime.loaded.config.tools?.toolSearch,
  });
}
