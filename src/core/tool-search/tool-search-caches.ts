import { type CatalogCache, createCatalogCache, libraryCatalogCache } from "../catalog/index.js";
import {
  createValidatorCache,
  MAX_SHARED_VALIDATORS,
  sharedValidatorCache,
  type ValidatorCache,
} from "../execution/index.js";
import { createDirectoryCache, type DirectoryCache } from "./directory-cache.js";
import { createSearchIndexCache, type SearchIndexCache } from "./shared-index.js";

/**
 * What runs of Tool Search share across runs, held by whoever owns the runs (a runner's environment): each
 * cache is keyed by content (fingerprints, schema content) or by the tool set it was built from, and
 * bounded by its own LRU.
 */
export interface ToolSearchCaches {
  /** Built catalogs per tool set (`tools.catalogCacheSize` of them). */
  readonly catalogs: CatalogCache;
  /** Search indexes per catalog fingerprint. */
  readonly indexes: SearchIndexCache;
  /** Rendered directories per fingerprint, mode, budget and visible names. */
  readonly directories: DirectoryCache;
  /** Compiled validators per schema content. */
  readonly validators: ValidatorCache;
}

/** Options of createToolSearchCaches. */
export type ToolSearchCachesOptions = {
  /** Tool sets that keep their catalog (`tools.catalogCacheSize`; 0 turns sharing off). Default DEFAULT_CATALOG_CACHE_SIZE. */
  catalogCacheSize?: number;
};

/** A new, empty set of Tool Search caches. */
export function createToolSearchCaches(options: ToolSearchCachesOptions = {}): ToolSearchCaches {
  return {
    catalogs: createCatalogCache(
      ...(options.catalogCacheSize === undefined ? [] : [options.catalogCacheSize]),
    ),
    indexes: createSearchIndexCache(),
    directories: createDirectoryCache(),
    validators: createValidatorCache(MAX_SHARED_VALIDATORS),
  };
}

let library: ToolSearchCaches | undefined;

/** The caches of library callers that hand none of their own (`createToolSearch`), made on first use. */
export function libraryToolSearchCaches(): ToolSearchCaches {
  library ??= {
    catalogs: libraryCatalogCache(),
    indexes: createSearchIndexCache(),
    directories: createDirectoryCache(),
    validators: sharedValidatorCache(),
  };
  return library;
}
