import { ToolsiftError } from "../../shared/errors/index.js";
import { isPlainObject } from "../../shared/schema/index.js";
import { cutText, describeValue, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";
import type { SettingIssue, ToolSearchSettings } from "./settings-types.js";

/** Config path of the Tool Search settings, used in every message about them. */
export const TOOL_SEARCH_CONFIG_PATH = "tools.toolSearch";
/** The command that migrates retired keys, named in every retired-key error. */
export const MIGRATION_COMMAND = "toolsift doctor --fix";

/** A read value: the settings when it is valid, and every problem found. */
export interface ToolSearchSettingsReading {
  settings?: ToolSearchSettings;
  issues: SettingIssue[];
  /** The limits as written, whenever the value is a readable object (also when it has other problems). */
  limits?: { searchDefaultLimit: unknown; maxSearchLimit: unknown };
}

const OPTION_KEYS = ["enabled", "mode", "searchDefaultLimit", "maxSearchLimit", "alwaysVisible"] as const;
const UNKNOWN_KEY_MESSAGE =
  "unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)";
const RETIRED_NOTE = "the tool_search_code bridge moved to Code Mode";

const UNSET: ToolSearchSettings = settingsOf({ explicit: false, enabled: true });

/**
 * Reads a `tools.toolSearch` value once, without trusting it: Proxies and throwing getters become issues,
 * never exceptions, and every problem is listed, not only the first. A valid value gives frozen
 * `ToolSearchSettings`, which createToolSearch, the runner and `mcp serve` use as they are. Limits are kept
 * as written: a file's limit that is not a positive integer is an issue of validateToolSearchConfig, a
 * library caller's falls back to the default.
 */
export function readToolSearchSettings(value: unknown): ToolSearchSettingsReading {
  if (value === undefined) return { settings: UNSET, issues: [] };
  if (typeof value === "boolean")
    return { settings: settingsOf({ explicit: true, enabled: value }), issues: [] };
  if (!isPlainObject(value)) {
    return { issues: [issue("", `expected true, false or an object (got ${describeValue(value)})`)] };
  }
  const properties = readOwnProperties(value);
  if (properties === undefined) {
    return { issues: [issue("", "could not be read (expected true, false or an object)")] };
  }

  const issues: SettingIssue[] = [];
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
  const pins = alwaysVisible === undefined ? [] : nameList(alwaysVisible);
  if (pins === undefined) {
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
  if (issues.length > 0 || pins === undefined) return { issues, limits };
  return {
    limits,
    settings: settingsOf({
      explicit: true,
      enabled: enabled !== false,
      mode: mode === "directory" ? "directory" : "tools",
      ...limits,
      alwaysVisible: pins,
    }),
    issues,
  };
}

/**
 * The settings a valid `tools.toolSearch` value says (readToolSearchSettings); an invalid or retired value
 * throws a `CONFIG_INVALID` ToolsiftError listing every problem as `path: reason`.
 */
export function requireToolSearchSettings(value: unknown): ToolSearchSettings {
  const reading = readToolSearchSettings(value);
  if (reading.settings === undefined) {
    throw new ToolsiftError("CONFIG_INVALID", formatSettingIssues(reading.issues));
  }
  return reading.settings;
}

function settingsOf(fields: {
  explicit: boolean;
  enabled: boolean;
  mode?: ToolSearchSettings["mode"];
  searchDefaultLimit?: unknown;
  maxSearchLimit?: unknown;
  alwaysVisible?: readonly string[];
}): ToolSearchSettings {
  return Object.freeze({
    explicit: fields.explicit,
    enabled: fields.enabled,
    mode: fields.mode ?? "tools",
    searchDefaultLimit: fields.searchDefaultLimit,
    maxSearchLimit: fields.maxSearchLimit,
    alwaysVisible: Object.freeze([...(fields.alwaysVisible ?? [])]),
  });
}

/** A copy of a list of non-empty strings (pinned tool names or ids), or undefined for anything else. */
function nameList(value: unknown): string[] | undefined {
  try {
    if (!Array.isArray(value)) return undefined;
    const names = [...value];
    return names.every((item) => typeof item === "string" && item.length > 0) ? names : undefined;
  } catch {
    return undefined;
  }
}

/** Formats issues as the operator reads them: one `path: message` line each. */
export function formatSettingIssues(issues: readonly SettingIssue[]): string {
  return issues.map((entry) => `${entry.path}: ${entry.message}`).join("\n");
}

function issue(key: string, message: string): SettingIssue {
  return {
    path: key === "" ? TOOL_SEARCH_CONFIG_PATH : `${TOOL_SEARCH_CONFIG_PATH}${pathSegment(key)}`,
    message,
  };
}

function pathSegment(key: string): string {
  if (/^[A-Za-z_$][\w$]*$/u.test(key)) return `.${cutText(key, LONGEST_SHOWN_VALUE)}`;
  return `[${cutText(JSON.stringify(key), LONGEST_SHOWN_VALUE)}]`;
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
