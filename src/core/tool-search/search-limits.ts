import type { SearchLimits } from "../controls/index.js";
import {
  DEFAULT_MAX_SEARCH_LIMIT,
  DEFAULT_SEARCH_DEFAULT_LIMIT,
  MAX_SEARCH_LIMIT_CEILING,
  MIN_SEARCH_LIMIT,
} from "./limits.js";

/**
 * Applies config.md's limit rules: values that are not positive integers fall back to `defaults`,
 * `maxSearchLimit` is clamped to 1..50 and `searchDefaultLimit` to 1..`maxSearchLimit`.
 */
export function resolveSearchLimits(
  configured: { searchDefaultLimit?: unknown; maxSearchLimit?: unknown },
  defaults: SearchLimits = {
    searchDefaultLimit: DEFAULT_SEARCH_DEFAULT_LIMIT,
    maxSearchLimit: DEFAULT_MAX_SEARCH_LIMIT,
  },
): SearchLimits {
  const maxSearchLimit = clamp(
    positiveIntegerOr(configured.maxSearchLimit, defaults.maxSearchLimit),
    MIN_SEARCH_LIMIT,
    MAX_SEARCH_LIMIT_CEILING,
  );
  const searchDefaultLimit = clamp(
    positiveIntegerOr(configured.searchDefaultLimit, defaults.searchDefaultLimit),
    MIN_SEARCH_LIMIT,
    maxSearchLimit,
  );
  return { searchDefaultLimit, maxSearchLimit };
}

function positiveIntegerOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : fallback;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
