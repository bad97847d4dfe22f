import { describeValue } from "../../shared/text/index.js";
import { DEFAULT_MAX_SEARCH_LIMIT, DEFAULT_SEARCH_DEFAULT_LIMIT } from "./limits.js";
import { readToolSearchSettings, TOOL_SEARCH_CONFIG_PATH } from "./read-tool-search-settings.js";
import type { SettingIssue } from "./settings-types.js";

const LIMIT_DEFAULTS = {
  searchDefaultLimit: DEFAULT_SEARCH_DEFAULT_LIMIT,
  maxSearchLimit: DEFAULT_MAX_SEARCH_LIMIT,
} as const;

/**
 * Every problem in a `tools.toolSearch` value as a config file holds it (wrong types, unknown modes and keys,
 * retired keys, limits that are not positive integers), for the config loader, `config set` and `doctor` to
 * list; empty when the value is valid. Never throws. Stricter than `resolveToolSearchConfig`, which lets a
 * library caller's bad limit fall back to the default: in a file, `"12"` or `-3` is a typo to be named.
 */
export function validateToolSearchConfig(value: unknown): SettingIssue[] {
  const reading = readToolSearchSettings(value);
  const issues = [...reading.issues];
  for (const key of ["searchDefaultLimit", "maxSearchLimit"] as const) {
    const limit = reading.limits?.[key];
    if (limit === undefined || isPositiveInteger(limit)) continue;
    issues.push({
      path: `${TOOL_SEARCH_CONFIG_PATH}.${key}`,
      message: `expected a positive integer (got ${describeValue(limit)}); ${limitFix(limit)}, or remove the key for the default ${LIMIT_DEFAULTS[key]}`,
    });
  }
  return issues;
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

/** What to write instead of a limit that is not a positive integer. */
function limitFix(value: unknown): string {
  if (typeof value === "string" && /^\s*\d+\s*$/u.test(value) && Number(value) >= 1) {
    return `write it as a number, without quotes (${Number(value)})`;
  }
  if (typeof value === "number" && Number.isFinite(value) && value >= 1) {
    return `use a whole number such as ${Math.floor(value)}`;
  }
  return "use a whole number of at least 1";
}
