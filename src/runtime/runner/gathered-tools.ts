import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { createCoreTools } from "../core-tools/index.js";
import type { RunCaches } from "../environment/index.js";
import type { RunnerOptions } from "./runner-options.js";

const NO_TOOLS: readonly ToolDefinition[] = Object.freeze([]);

/** The tools of an agent's sources, before policy, and their version when every source states one. */
export interface GatheredTools {
  tools: readonly ToolDefinition[];
  /**
   * The core tools' and the plugins' lists (each a serial handed out per list, with its length) and the extra
   * source's own (`RunnerOptions.extraToolsVersion`). Equal versions mean the very same definitions.
   */
  version?: string;
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

/**
 * The core tools of a workspace, made once per environment: they hold nothing but their settings, and the
 * same definitions run after run let the run surface reuse the policy's verdicts and the catalog instead of
 * rebuilding them.
 */
function coreToolsFor(caches: RunCaches, workspace: string): readonly ToolDefinition[] {
  const cache = caches.coreToolsByWorkspace;
  let tools = cache.get(workspace);
  if (tools) return tools;
  tools = Object.freeze(createCoreTools({ workspace }));
  cache.set(workspace, tools);
  return tools;
}

/**
 * One list of `sources` in order: the very list of the last call when every source is the same list (by
 * identity, with the same length) as then, so runs over unchanged sources hand the run surface the same
 * array and its shared policy verdicts and catalog are found without a pass over thousands of tools.
 * Sources replace their lists when they change (plugins load once, MCP connections swap theirs on
 * `list_changed`).
 */
function joined(
  caches: RunCaches,
  key: string,
  sources: readonly (readonly ToolDefinition[])[],
): readonly ToolDefinition[] {
  const cache = caches.gatheredByWorkspace;
  const last = cache.get(key);
  if (
    last &&
    last.sources.length === sources.length &&
    last.sources.every((list, index) => list === sources[index])
  ) {
    const lengths = last.tools.length === sources.reduce((sum, list) => sum + list.length, 0);
    if (lengths) return last.tools;
  }
  const tools = Object.freeze(sources.flat());
  cache.set(key, { sources, tools });
  return tools;
}

/**
 * The tools of an agent's sources, before policy: core tools (in the agent's workspace), plugin tools and
 * the extra sources (MCP). The run surface applies the agent's policy before anything else sees them: a
 * denied tool never reaches the catalog, the directory, the provider request or the session log.
 */
export async function gatheredTools(options: RunnerOptions, agent: ResolvedAgent): Promise<GatheredTools> {
  const { caches, plugins } = options.environment;
  const core = options.coreTools === false ? NO_TOOLS : coreToolsFor(caches, agent.workspace);
  const extra = (await options.extraTools?.()) ?? NO_TOOLS;
  const extraVersion = options.extraTools === undefined ? "none" : options.extraToolsVersion?.();
  if (extraVersion === undefined)
    return { tools: joined(caches, agent.workspace, [core, plugins.tools, extra]) };
  const version = `core#${listVersion(core)}|plugins#${listVersion(plugins.tools)}|extra#${extraVersion}`;
  let tools = caches.gatheredByVersion.get(version);
  if (tools === undefined) {
    tools = Object.freeze([...core, ...plugins.tools, ...extra]);
    caches.gatheredByVersion.set(version, tools);
  }
  return { tools, version };
}
