import { toCatalogEntry } from "../catalog/index.js";
import { resolveAgent } from "../config/index.js";
import { createProvider, type Provider } from "../providers/index.js";
import { toolSearchOptionsFor } from "../run-surface/index.js";
import { createToolSearch, modelToolEntry } from "../tool-search/index.js";
import { admittedTools } from "./admitted-tools.js";
import { DEFAULT_CLOSE_TIMEOUT_MS } from "./limits.js";
import { runAgent } from "./run-agent.js";
import type { RunnerOptions } from "./runner-options.js";
import type { EffectiveSurface, EffectiveTool, Runner, RunResult } from "./types.js";

/** The agent runner: one catalog per run, provider clients reused per provider id. */
export function createRunner(options: RunnerOptions): Runner {
  const env = options.env ?? process.env;
  const providers = new Map<string, Provider>();
  const inFlight = new Set<Promise<RunResult>>();
  const makeProvider = options.createProvider ?? createProvider;

  const agentFor = (agentId: string) =>
    resolveAgent(options.config, agentId, {
      stateDir: options.stateDir,
      env,
      ...(options.configDir ? { configDir: options.configDir } : {}),
    });
  const providerFor = (agent: ReturnType<typeof agentFor>): Provider => {
    let provider = providers.get(agent.model.provider);
    if (!provider) {
      provider = makeProvider(agent.model.provider, agent.model.settings ?? { api: "openai-responses" });
      providers.set(agent.model.provider, provider);
    }
    return provider;
  };

  return {
    async run(request) {
      const agent = agentFor(request.agentId);
      const running = runAgent(options, agent, providerFor(agent), request);
      inFlight.add(running);
      try {
        return await running;
      } finally {
        inFlight.delete(running);
      }
    },
    async effectiveSurface(agentId) {
      const agent = agentFor(agentId);
      const { tools } = await admittedTools(options, agent);
      const search = createToolSearch(
        toolSearchOptionsFor({ tools, settings: options.config.tools?.toolSearch, agent }),
      );
      try {
        const modelTools = search.modelTools();
        const declared = modelTools.map((tool) => tool.name);
        // By id: a pinned MCP tool is declared as <server>__<tool>, not under its catalog name.
        const declaredIds = new Set(
          modelTools.flatMap((tool) => {
            const entry = modelToolEntry(tool) ?? toCatalogEntry(tool);
            return entry ? [entry.id] : [];
          }),
        );
        const admitted: EffectiveTool[] = tools.flatMap((tool) => {
          const entry = toCatalogEntry(tool);
          if (!entry) return [];
          const visibility: EffectiveTool["visibility"] =
            tool.catalogMode === "direct-only"
              ? "direct-only"
              : !search.enabled || declaredIds.has(entry.id)
                ? "direct"
                : "catalog";
          return [{ id: entry.id, name: entry.name, source: entry.source, owner: entry.owner, visibility }];
        });
        const surface: EffectiveSurface = {
          agentId: agent.id,
          toolSearch: { enabled: search.enabled, mode: search.mode },
          tools: admitted,
          declaredTools: declared,
        };
        const directory = search.directory();
        if (directory !== undefined) surface.directory = directory;
        return surface;
      } finally {
        search.close();
      }
    },
    agentIds() {
      const ids = new Set(["main", ...(options.config.agents?.list ?? []).map((agent) => agent.id)]);
      return [...ids];
    },
    async close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      if (timer) clearTimeout(timer);
    },
  };
}
