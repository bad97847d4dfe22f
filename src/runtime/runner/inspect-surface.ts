import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ToolSearchSettings } from "../../core/tool-search/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { agentProfile } from "../environment/index.js";
import { openRunSurface, type RunSurface } from "../run-surface/index.js";
import { codeModeFor } from "./code-mode-for.js";
import { gatheredTools } from "./gathered-tools.js";
import type { RunnerOptions } from "./runner-options.js";

/** A surface opened for a look without a run, with the tools and policy it was opened over. */
export interface InspectedSurface {
  policy: ReturnType<typeof agentProfile>["policy"];
  /** Whether the surface is Code Mode's (`exec`, `wait` and the direct-only tools declared, Tool Search off). */
  codeMode: boolean;
  /** The agent's tools before policy. */
  tools: readonly ToolDefinition[];
  surface: RunSurface;
}

/**
 * The surface a run of `agent` would open (same tools, policy, settings and caches), for a look without a
 * run: nothing is prompted on it and its calls pass no plugin hook, approval or log (the settings and the
 * caches alone). When the agent's runs use Code Mode (`codeModeFor`), so does the surface, declared only: no
 * sandbox is checked or started, and `exec`/`wait` are declared as a run whose sandbox starts declares them.
 * `toolSearch` replaces the environment's settings and `codeMode: false` leaves Code Mode off (to see the
 * surface with Tool Search off). The caller closes the surface.
 */
export async function inspectSurface(
  options: RunnerOptions,
  agent: ResolvedAgent,
  look: { sessionKey: string; toolSearch?: ToolSearchSettings; codeMode?: false },
): Promise<InspectedSurface> {
  const { environment } = options;
  const profile = agentProfile(environment.config, agent);
  const codeMode = look.codeMode === false ? undefined : codeModeFor(environment.config, agent);
  const gathered = await gatheredTools(options, agent);
  const { tools } = gathered;
  const surface = await openRunSurface(
    { toolSearch: look.toolSearch ?? environment.toolSearch, caches: environment.caches },
    {
      profile,
      sessionKey: look.sessionKey,
      tools,
      ...(gathered.version === undefined ? {} : { toolsVersion: gathered.version }),
      ...(codeMode === undefined ? {} : { codeMode: { ...codeMode, declareOnly: true } }),
      unknownToolText: (name) => `Unknown tool "${name.slice(0, 200)}".`,
    },
  );
  return { policy: profile.policy, codeMode: codeMode !== undefined, tools, surface };
}
