import { cutText } from "../text/index.js";
import { LONGEST_SHOWN_VALUE, MIGRATION_COMMAND, TOOL_SEARCH_CONFIG_PATH } from "./limits.js";
import type { ConfigIssue, ToolSearchMode } from "./types.js";

/** What a `tools.toolSearch` value says, before harness, model and Code Mode are applied. */
export type ToolSearchSettings =
  | { kind: "unset" }
  | { kind: "boolean"; enabled: boolean }
  | {
      kind: "object";
      enabled: boolean;
      mode?: ToolSearchMode;
      searchDefaultLimit: unknown;
      maxSearchLimit: unknown;
    };

/** A read value: the settings when it is valid, and every problem found. */
export interface ToolSearchValueReading {
  settings?: ToolSearchSettings;
  issues: ConfigIssue[];
  /** The limits as written, whenever the value is a readable object (also when it has other problems). */
  limits?: { searchDefaultLimit: unknown; maxSearchLimit: unknown };
}

const OPTION_KEYS = ["enabled", "mode", "searchDefaultLimit", "maxSearchLimit", "alwaysVisible"] as const;
const UNKNOWN_KEY_MESSAGE =
  "unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)";
const RETIRED_NOTE = "the tool_search_code bridge moved to Code Mode";

/**
 * Reads a `tools.toolSearch` value without trusting it: Proxies and throwing getters become issues, never
 * exceptions. Every problem is listed, not only the first.
 */
export function readToolSearchValue(value: unknown): ToolSearchValueReading {
  if (value === undefined) return { settings: { kind: "unset" }, issues: [] };
  if (typeof value === "boolean") return { settings: { kind: "boolean", enabled: value }, issues: [] };
  if (!isPlainObject(value)) {
    return { issues: [issue("", `expected true, false or an object (got ${describeValue(value)})`)] };
  }
  const properties = readOwnProperties(value);
  if (properties === undefined) {
    return { issues: [issue("", "could not be read (expected true, false or an object)")] };
  }

  const issues: ConfigIssue[] = [];
  for (const key of properties.unreadable) issues.push(issue(key, "could not be read"));
  const fields = properties.values;
  for (const key of fields.keys()) {
    if (key === "codeTimeoutMs") {
      issues.push(issue(key, `retired key (${RETIRED_NOTE}); run ${MIGRATION_COMMAND} to remove it`));
    } else if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      issues.push(issue(key, UNKNOWN_KEY_MESSAGE));
    }
  }

  const enabled = fields.get("enabled");
  if (enabled !== undefined && typeof enabled !== "boolean") {
    issues.push(issue("enabled", `expected true or false (got ${describeValue(enabled)})`));
  }
  const mode = fields.get("mode");
  if (mode === "code") {
    issues.push(
      issue("mode", `"code" is retired (${RETIRED_NOTE}); run ${MIGRATION_COMMAND} to migrate it to "tools"`),
    );
  } else if (mode !== undefined && mode !== "tools" && mode !== "directory") {
    issues.push(issue("mode", `expected "tools" | "directory" (got ${describeValue(mode)})`));
  }
  const alwaysVisible = fields.get("alwaysVisible");
  if (alwaysVisible !== undefined && !isNameList(alwaysVisible)) {
    issues.push(
      issue(
        "alwaysVisible",
        `expected a list of native tool names or ids, e.g. ["web_search"] (got ${describeValue(alwaysVisible)})`,
      ),
    );
  }

  const limits = {
    searchDefaultLimit: fields.get("searchDefaultLimit"),
    maxSearchLimit: fields.get("maxSearchLimit"),
  };
  if (issues.length > 0) return { issues, limits };
  return {
    limits,
    settings: {
      kind: "object",
      enabled: enabled !== false,
      ...(mode === "tools" || mode === "directory" ? { mode } : {}),
      searchDefaultLimit: fields.get("searchDefaultLimit"),
      maxSearchLimit: fields.get("maxSearchLimit"),
    },
    issues,
  };
}

/** A list of non-empty strings (pinned tool names or ids). */
function isNameList(value: unknown): boolean {
  try {
    return Array.isArray(value) && value.every((item) => typeof item === "string" && item.length > 0);
  } catch {
    return false;
  }
}

/** Formats issues as the operator reads them: one `path: message` line each. */
export function formatConfigIssues(issues: readonly ConfigIssue[]): string {
  return issues.map((entry) => `${entry.path}: ${entry.message}`).join("\n");
}

function issue(key: string, message: string): ConfigIssue {
  return {
    path: key === "" ? TOOL_SEARCH_CONFIG_PATH : `${TOOL_SEARCH_CONFIG_PATH}${pathSegment(key)}`,
    message,
  };
}

function pathSegment(key: string): string {
  if (/^[A-Za-z_$][\w$]*$/u.test(key)) return `.${cutText(key, LONGEST_SHOWN_VALUE)}`;
  return `[${cutText(JSON.stringify(key), LONGEST_SHOWN_VALUE)}]`;
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  try {
    if (Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

function readOwnProperties(
  value: object,
): { values: Map<string, unknown>; unreadable: string[] } | undefined {
  let keys: string[];
  try {
    keys = Object.keys(value);
  } catch {
    return undefined;
  }
  const values = new Map<string, unknown>();
  const unreadable: string[] = [];
  for (const key of keys) {
    try {
      values.set(key, (value as Record<string, unknown>)[key]);
    } catch {
      unreadable.push(key);
    }
  }
  return { values, unreadable };
}

/** A short, safe rendering of a received value for an error message. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return cutText(JSON.stringify(value), LONGEST_SHOWN_VALUE);
    case "number":
    case "boolean":
      return String(value);
    case "bigint":
      return `${value}n`;
    case "undefined":
      return "undefined";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      try {
        return Array.isArray(value) ? "an array" : "an object";
      } catch {
        return "an object";
      }
  }
}
