import { readToolSearchValue } from "./read-tool-search-value.js";
import type { ConfigIssue } from "./types.js";

/**
 * Every problem in a `tools.toolSearch` value (wrong types, unknown modes and keys, retired keys), for a
 * config-file validator or `doctor` to list; empty when the value is valid. Never throws.
 */
export function validateToolSearchConfig(value: unknown): ConfigIssue[] {
  return readToolSearchValue(value).issues;
}
