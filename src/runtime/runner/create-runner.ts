import { LRUCache } from "lru-cache";
import { toCatalogEntry } from "../../core/catalog/index.js";
import { agentEnvironmentKey, type ResolvedAgent, resolveAgent } from "../config/index.js";
import { applyToolPolicy } from "../policy/index.js";
import { createProvider, type Provider } from "../providers/index.js";
import { traceProvider, traceRun } from "../telemetry/index.js";
import { describeWithoutRun, type EveryToolBytes, searchWithoutRun } from "./controls-without-run.js";
import { countInputTokens } from "./count-input-tokens.js";
import { inspectSurface } from "./inspect-surface.js";
import { DEFAULT_CLOSE_TIMEOUT_MS, MAX_RESOLVED_AGENTS } from "./limits.js";
import { createProviderStatusBoard } from "./provider-status.js";
import { runAgent } from "./run-agent.js";
import type { RunnerOptions } from "./runner-options.js";
import type { EffectiveSurface, EffectiveTool, Runner, RunResult } from "./types.js";

/**
 * The agent runner: one Tool Search per run, over catalogs shared by runs with unchanged tool sets; provider
 * clients reused per provider id.
 */
export function createRunner(options: RunnerOptions): Runner {
  const { environment } = options;
  const { config, env } = environment;
  const providers = new Map<string, Provider>();
  const inFlight = new Set<Promise<RunResult>>();
  const makeProvider = options.createProvider ?? createProvider;
  const providerStatuses = createProviderStatusBoard(Object.keys(config.models?.providers ?? {}));

  // Resolved once per agent while the environment it reads stays the same (the config never changes here).
  const agents = new LRUCache<string, { envKey: string; agent: ResolvedAgent }>({ max: MAX_RESOLVED_AGENTS });
  const agentFor = (agentId: string): ResolvedAgent => {
    const envKey = agentEnvironmentKey(env);
    const known = agents.get(agentId);
    if (known?.envKey === envKey) return known.agent;
    const agent = resolveAgent(config, agentId, {
      stateDir: environment.stateDir,
      env,
      configDir: environment.configDir,
    });
    agents.set(agentId, { envKey, agent });
    return agent;
  };
  const providerFor = (agent: ReturnType<typeof agentFor>): Provider => {
    let provider = providers.get(agent.model.provider);
    if (!provider) {
      // Traced as `chat {model}` spans while an OpenTelemetry SDK is registered (one check per request otherwise).
      provider = providerStatuses.track(
        traceProvider(
          makeProvider(agent.model.provider, agent.model.settings ?? { api: "openai-responses" }),
        ),
      );
      providers.set(agent.model.provider, provider);
    }
    return provider;
  };

  const everyToolBytes: EveryToolBytes = new WeakMap();

  /** The surface a run of `agentId` would open (same tools, policy and settings), for a look without a run. */
  const inspect = async (agentId: string, look: { sessionKey: string; codeMode?: false }) => {
    const agent = agentFor(agentId);
    return { agent, ...(await inspectSurface(options, agent, look)) };
  };

  return {
    async run(request) {
      const agent = agentFor(request.agentId);
      const running = traceRun(
        {
          agentId: agent.id,
          sessionKey: request.sessionKey,
          providerId: agent.model.provider,
          model: agent.model.id,
        },
        () => runAgent(options, agent, providerFor(agent), request),
      );
      inFlight.add(running);
      try {
        return await running;
      } finally {
        inFlight.delete(running);
      }
    },
    async warm() {
      const started = performance.now();
      let tools = 0;
      const agentIds = this.agentIds();
      for (const agentId of agentIds) {
        // Code Mode off for every agent: the shared catalog and search index are built, no sandbox starts.
        const { tools: gathered, surface } = await inspect(agentId, {
          sessionKey: "warm-up",
          codeMode: false,
        });
        try {
          // The directory too: a run renders it into its instructions before its first provider request.
          surface.directory();
          surface.warmSearch();
          tools += gathered.length;
        } finally {
          surface.close();
        }
      }
      return { agents: agentIds.length, tools, ms: Math.round(performance.now() - started) };
    },
    async effectiveSurface(agentId) {
      const { agent, policy, codeMode, tools, surface } = await inspect(agentId, {
        sessionKey: "effective-surface",
      });
      try {
        const declared = surface.modelTools().map((tool) => tool.name);
        // By id: a pinned or directly declared MCP tool is declared as <server>__<tool>, not under its name.
        const declaredIds = new Set(declared.flatMap((name) => surface.describeCall(name).toolId ?? []));
        const admitted: EffectiveTool[] = applyToolPolicy(tools, policy).admitted.flatMap((tool) => {
          const entry = toCatalogEntry(tool);
          if (!entry) return [];
          // In Code Mode a catalog tool is reached only inside a cell (`tools.search`, `tools.call`).
          const visibility: EffectiveTool["visibility"] =
            tool.catalogMode === "direct-only"
              ? "direct-only"
              : codeMode
                ? "catalog"
                : !surface.toolSearchEnabled || declaredIds.has(entry.id)
                  ? "direct"
                  : "catalog";
          return [{ id: entry.id, name: entry.name, source: entry.source, owner: entry.owner, visibility }];
        });
        const effective: EffectiveSurface = {
          agentId: agent.id,
          toolSearch: { enabled: surface.toolSearchEnabled, mode: surface.mode },
          ...(codeMode ? { codeMode: { enabled: true as const } } : {}),
          tools: admitted,
          declaredTools: declared,
        };
        const directory = surface.directory();
        if (directory !== undefined) effective.directory = directory;
        return effective;
      } finally {
        surface.close();
      }
    },
    searchTools(look) {
      return searchWithoutRun({ ...options, everyToolBytes }, agentFor(look.agentId), look);
    },
    describeTool(agentId, id) {
      return describeWithoutRun(options, agentFor(agentId), id);
    },
    countInputTokens(request) {
      return countInputTokens(options, agentFor(request.agentId), request);
    },
    providerStatus: () => providerStatuses.snapshot(),
    agentIds() {
      const ids = new Set(["main", ...(config.agents?.list ?? []).map((agent) => agent.id)]);
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
