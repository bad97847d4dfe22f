import { LRUCache } from "lru-cache";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { createCoreTools } from "../core-tools/index.js";
import { type PolicyLayers, policyLayersFor } from "../policy/index.js";
import { MAX_CORE_TOOL_WORKSPACES } from "./limits.js";
import type { RunnerOptions } from "./runner-options.js";

/**
 * The core tools per workspace, made once: they hold nothing but their settings, and the same definitions
 * run after run let the run surface reuse the policy's verdicts and the catalog instead of rebuilding them.
 */
const coreToolsByWorkspace = new LRUCache<string, readonly ToolDefinition[]>({
  max: MAX_CORE_TOOL_WORKSPACES,
});

function coreToolsFor(workspace: string): readonly ToolDefinition[] {
  let tools = coreToolsByWorkspace.get(workspace);
  if (tools) return tools;
  tools = Object.freeze(createCoreTools({ workspace }));
  coreToolsByWorkspace.set(workspace, tools);
  return tools;
}

/** The tools of an agent's sources, before policy, and the policy the run surface applies to them. */
export interface GatheredTools {
  tools: readonly ToolDefinition[];
  /**
   * The version of `tools`, when every source states one: the core tools' and the plugins' lists (each a
   * serial handed out per list, with the plugins' length) and the extra source's own
   * (`RunnerOptions.extraToolsVersion`). Equal versions mean the very same definitions.
   */
  version?: string;
  policy: PolicyLayers;
}

/** A serial per source list, handed out on first sight: the version of a list its source never edits. */
const listSerials = new WeakMap<readonly ToolDefinition[], number>();
let nextListSerial = 1;

function listVersion(list: readonly ToolDefinition[]): string {
  let serial = listSerials.get(list);
  if (serial === undefined) {
    serial = nextListSerial;
    nextListSerial += 1;
    listSerials.set(list, serial);
  }
  return `${serial}:${list.length}`;
}

/** The joined list of each version of the sources, so one version always hands over one array. */
const byVersion = new LRUCache<string, readonly ToolDefinition[]>({ max: MAX_CORE_TOOL_WORKSPACES });

const NO_TOOLS: readonly ToolDefinition[] = Object.freeze([]);

/** The last list gathered from each combination of source lists, by the lists' identity and length. */
const lastGathered = new LRUCache<
  string,
  { sources: readonly (readonly ToolDefinition[])[]; tools: readonly ToolDefinition[] }
>({ max: MAX_CORE_TOOL_WORKSPACES });

/**
 * One list of `sources` in order: the very list of the last call when every source is the same list (by
 * identity, with the same length) as then, so runs over unchanged sources hand the run surface the same
 * array and its shared policy verdicts and catalog are found without a pass over thousands of tools.
 * Sources replace their lists when they change (plugins load once, MCP connections swap theirs on
 * `list_changed`).
 */
function joined(key: string, sources: readonly (readonly ToolDefinition[])[]): readonly ToolDefinition[] {
  const last = lastGathered.get(key);
  if (
    last &&
    last.sources.length === sources.length &&
    last.sources.every((list, index) => list === sources[index])
  ) {
    const lengths = last.tools.length === sources.reduce((sum, list) => sum + list.length, 0);
    if (lengths) return last.tools;
  }
  const tools = Object.freeze(sources.flat());
  lastGathered.set(key, { sources, tools });
  return tools;
}

/**
 * Gathers core tools (in the agent's workspace), plugin tools and the extra sources (MCP), with the agent's
 * tool policy. The run surface applies that policy before anything else sees them: a denied tool never
 * reaches the catalog, the directory, the provider request or the session log.
 */
export async function gatheredTools(options: RunnerOptions, agent: ResolvedAgent): Promise<GatheredTools> {
  const core = options.coreTools === false ? NO_TOOLS : coreToolsFor(agent.workspace);
  const plugins = options.plugins?.tools ?? NO_TOOLS;
  const extra = (await options.extraTools?.()) ?? NO_TOOLS;
  const policy = policyLayersFor(options.config, agent);
  const extraVersion = options.extraTools === undefined ? "none" : options.extraToolsVersion?.();
  if (extraVersion === undefined) return { tools: joined(agent.workspace, [core, plugins, extra]), policy };
  const version = `core#${listVersion(core)}|plugins#${listVersion(plugins)}|extra#${extraVersion}`;
  let tools = byVersion.get(version);
  if (tools === undefined) {
    tools = Object.freeze([...core, ...plugins, ...extra]);
    byVersion.set(version, tools);
  }
  return { tools, version, policy };
}
