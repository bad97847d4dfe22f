import { LRUCache } from "lru-cache";
import {
  createSequenceMemo,
  libraryCatalogCache,
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
  /** The admitted list's version, when the tools had one and the result is shared: their version and the policy's. */
  readonly version?: string;
};

/** Verdicts per policy (by content) and tool set (by identity), least recently used policy dropped first. */
export interface PolicyCache {
  /**
   * `applyToolPolicy`, reused by every run handed the very same definitions under an equal policy: the
   * admitted list is then the same array, so what is built from it next (the catalog) is found without a
   * pass over it. A result that had to pin a definition (getters, a Proxy: values that may read differently
   * next time) is never reused. The returned lists are frozen: callers copy before changing them. With a
   * `version` (what the tools' sources say of them: equal versions mean the very same definitions) the
   * verdicts are found by that version alone; without one, by the definitions' identity.
   */
  apply(tools: readonly ToolDefinition[], layers: PolicyLayers, version?: string): SharedPolicyResult;
}

type PolicyMemo = {
  capacity: number;
  memo: SequenceMemo<SharedPolicyResult>;
  /** Results by the tools' version (none when nothing is kept). */
  versions: LRUCache<string, SharedPolicyResult> | undefined;
};

function verdicts(
  tools: readonly ToolDefinition[],
  layers: PolicyLayers,
  version?: string,
): SharedPolicyResult {
  const result = applyToolPolicy(tools, layers);
  return Object.freeze({
    admitted: Object.freeze(result.admitted),
    denied: Object.freeze(result.denied),
    ...(version === undefined ? {} : { version }),
  });
}

/**
 * A policy cache of its own: MAX_SHARED_POLICIES policies, each keeping the verdicts on as many tool sets
 * as `capacity()` says (the catalog cache's size, so verdicts are kept for the tool sets whose catalog is).
 */
export function createPolicyCache(capacity: () => number): PolicyCache {
  const byPolicy = new LRUCache<string, PolicyMemo>({ max: MAX_SHARED_POLICIES });
  return {
    apply(tools, layers, version) {
      const key = JSON.stringify(layers);
      const size = capacity();
      let known = byPolicy.get(key);
      if (known?.capacity !== size) {
        known = {
          capacity: size,
          memo: createSequenceMemo<SharedPolicyResult>(size),
          versions: size > 0 ? new LRUCache({ max: size }) : undefined,
        };
        byPolicy.set(key, known);
      }
      if (version !== undefined && known.versions !== undefined) {
        const found = known.versions.get(version);
        if (found !== undefined) return found;
        const result = verdicts(tools, layers, `${version}\u0000${key}`);
        if (!allUnpinned(result.admitted, tools)) {
          return Object.freeze({ admitted: result.admitted, denied: result.denied });
        }
        known.versions.set(version, result);
        return result;
      }
      return known.memo.get(
        tools,
        () => verdicts(tools, layers),
        (result) => allUnpinned(result.admitted, tools),
      );
    },
  };
}

/** The policy cache beside the library's own catalog cache (for callers that hand no caches). */
const libraryPolicies = createPolicyCache(() => libraryCatalogCache().capacity);

/** `PolicyCache.apply` on `cache`, by default the one beside the library's own catalog cache. */
export function applySharedToolPolicy(
  tools: readonly ToolDefinition[],
  layers: PolicyLayers,
  cache: PolicyCache = libraryPolicies,
): SharedPolicyResult {
  return cache.apply(tools, layers);
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
