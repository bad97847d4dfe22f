import {
  createToolSearchCaches,
  libraryToolSearchCaches,
  type ToolSearchCaches,
  type ToolSearchCachesOptions,
} from "../../core/tool-search/index.js";
import { createPolicyCache, type PolicyCache } from "../policy/index.js";

/**
 * Everything runs share across runs, owned by the process's run environment and handed to each run surface:
 * Tool Search's caches (catalogs, indexes, directories, validators) and the policy's verdicts.
 */
export interface RuntimeCaches extends ToolSearchCaches {
  /** Policy verdicts per policy content and tool set, kept for as many tool sets as the catalogs are. */
  readonly policies: PolicyCache;
}

/** A new, empty set of runtime caches; `catalogCacheSize` is `tools.catalogCacheSize`. */
export function createRuntimeCaches(options: ToolSearchCachesOptions = {}): RuntimeCaches {
  return withPolicies(createToolSearchCaches(options));
}

let library: RuntimeCaches | undefined;

/** The caches of run surfaces opened without caches of their own: the library's (libraryToolSearchCaches). */
export function libraryRuntimeCaches(): RuntimeCaches {
  library ??= withPolicies(libraryToolSearchCaches());
  return library;
}

function withPolicies(caches: ToolSearchCaches): RuntimeCaches {
  return { ...caches, policies: createPolicyCache(() => caches.catalogs.capacity) };
}
