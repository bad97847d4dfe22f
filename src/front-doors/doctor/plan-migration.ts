import { MIGRATION_COMMAND } from "../../core/tool-search/index.js";
import { isPlainRecord, readConfigPath } from "../../runtime/config/index.js";
import { cutText, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";
import { type ConfigEdit, formatJson5Value } from "../config-editor/index.js";

/** A retired key found in the file. */
export interface RetiredKey {
  /** Its config path, e.g. `tools.toolSearch.mode`. */
  path: string;
  /** What is wrong and what `--fix` will do. */
  message: string;
}

/** The retired keys of a parsed config, the edits that migrate them, and one line per change. */
export interface MigrationPlan {
  retired: RetiredKey[];
  /** Applied in order by editConfigFile; empty when there is nothing to migrate. */
  edits: ConfigEdit[];
  /** What the edits change, e.g. `tools.toolSearch.mode: "code" → "tools"`. */
  changes: string[];
}

const TOOL_SEARCH = ["tools", "toolSearch"] as const;
const RETIRED_NOTE = "the tool_search_code bridge moved to Code Mode";

/**
 * Plans the migration of Tool Search code mode (config.md "Retired"): `mode: "code"` becomes `"tools"`,
 * `codeTimeoutMs` is removed, `enabled` and the limits stay, and an object that held only the timeout becomes
 * `{ enabled: true }`. Pure; reads own properties of plain objects only.
 */
export function planMigration(raw: unknown): MigrationPlan {
  const plan: MigrationPlan = { retired: [], edits: [], changes: [] };
  const toolSearch = readConfigPath(raw, TOOL_SEARCH).value;
  if (!isPlainRecord(toolSearch)) return plan;

  if (Object.hasOwn(toolSearch, "mode") && toolSearch.mode === "code") {
    plan.retired.push({
      path: "tools.toolSearch.mode",
      message: `tools.toolSearch.mode: "code" is retired (${RETIRED_NOTE}); ${MIGRATION_COMMAND} sets it to "tools"`,
    });
    plan.edits.push({ op: "set", path: [...TOOL_SEARCH, "mode"], value: "tools" });
    plan.changes.push('tools.toolSearch.mode: "code" → "tools"');
  }
  if (Object.hasOwn(toolSearch, "codeTimeoutMs")) {
    const shown = showValue(toolSearch.codeTimeoutMs);
    plan.retired.push({
      path: "tools.toolSearch.codeTimeoutMs",
      message: `tools.toolSearch.codeTimeoutMs is retired (${RETIRED_NOTE}); ${MIGRATION_COMMAND} removes it`,
    });
    if (Object.keys(toolSearch).every((key) => key === "codeTimeoutMs")) {
      plan.edits.push({ op: "set", path: [...TOOL_SEARCH, "enabled"], value: true });
      plan.changes.push("tools.toolSearch.enabled: true (the object held only the retired timeout)");
    }
    plan.edits.push({ op: "unset", path: [...TOOL_SEARCH, "codeTimeoutMs"] });
    plan.changes.push(`tools.toolSearch.codeTimeoutMs: removed (was ${shown})`);
  }
  return plan;
}

function showValue(value: unknown): string {
  try {
    return cutText(formatJson5Value(value), LONGEST_SHOWN_VALUE);
  } catch {
    return "a value nested too deep to show";
  }
}
