import {
  catalogCacheSize,
  createSequenceMemo,
  type SequenceMemo,
  type ToolDefinition,
} from "../../core/catalog/index.js";
import { applyToolPolicy } from "./apply-tool-policy.js";
import { MAX_SHARED_POLICIES } from "./limits.js";
import type { PolicyLayers, ToolPolicyResult } from "./types.js";

/** A policy's verdicts on one tool set, frozen: callers copy before changing a list. */
export type SharedPolicyResult = {
  readonly admitted: readonly ToolDefinition[];
  readonly denied: readonly ToolPolicyResult["denied"][number][];
};

/** Verdicts per policy (by content) and tool set (by identity), least recently used policy dropped first. */
const byPolicy = new Map<string, SequenceMemo<SharedPolicyResult>>();

/**
 * `applyToolPolicy`, reused by every run handed the very same definitions under an equal policy: the admitted
 * list is then the same array, so what is built from it next (the catalog) is found without a pass over it.
 * A result that had to pin a definition (getters, a Proxy: values that may read differently next time) is
 * never reused. The returned lists are frozen: callers copy before changing them.
 */
export function applySharedToolPolicy(
  tools: readonly ToolDefinition[],
  layers: PolicyLayers,
): SharedPolicyResult {
  const key = JSON.stringify(layers);
  let memo = byPolicy.get(key);
  if (memo) byPolicy.delete(key);
  else memo = createSequenceMemo<SharedPolicyResult>(catalogCacheSize);
  byPolicy.set(key, memo);
  for (const oldest of byPolicy.keys()) {
    if (byPolicy.size <= MAX_SHARED_POLICIES) break;
    byPolicy.delete(oldest);
  }
  return memo.get(
    tools,
    () => {
      const result = applyToolPolicy(tools, layers);
      return Object.freeze({
        admitted: Object.freeze(result.admitted),
        denied: Object.freeze(result.denied),
      });
    },
    (result) => allUnpinned(result.admitted, tools),
  );
}

/** True when every admitted definition is one of `tools` itself (none was replaced by a pinned copy). */
function allUnpinned(admitted: readonly ToolDefinition[], tools: readonly ToolDefinition[]): boolean {
  let index = 0;
  for (const tool of admitted) {
    while (index < tools.length && tools[index] !== tool) index += 1;
    if (index === tools.length) return false;
    index += 1;
  }
  return true;
}
