import { type CatalogEntry, type ToolDefinition, toCatalogEntry } from "../../core/catalog/index.js";
import { safeReadString } from "../../shared/schema/index.js";
import { pinDefinition } from "./pin-definition.js";
import { policyDecision } from "./policy-decision.js";
import type { DeniedTool, PolicyLayers, ToolPolicyResult } from "./types.js";

/** The reason given for a definition that has no usable name or `execute` function. */
export const UNCATALOGABLE_REASON =
  "not a usable tool definition: it needs a non-empty string name and an execute function";

/**
 * Splits a run's tools into those every policy layer admits and those it denies (with the reason). It runs
 * before the catalog: what is denied here never reaches the catalog, the provider or the log. Each tool is
 * judged by its catalog entry, read once and safely; a definition that cannot be cataloged is denied.
 */
export function applyToolPolicy(tools: readonly ToolDefinition[], layers: PolicyLayers): ToolPolicyResult {
  const admitted: ToolDefinition[] = [];
  const denied: DeniedTool[] = [];
  for (const tool of tools) {
    const entry = catalogEntryOf(tool);
    if (entry === undefined) {
      denied.push({ name: safeReadString(tool, "name"), id: "", reason: UNCATALOGABLE_REASON });
      continue;
    }
    const decision = policyDecision(entry, layers);
    if (decision.allowed) admitted.push(pinDefinition(tool, entry));
    else denied.push({ name: entry.name, id: entry.id, reason: decision.reason });
  }
  return { admitted, denied };
}

function catalogEntryOf(tool: ToolDefinition): CatalogEntry | undefined {
  try {
    return toCatalogEntry(tool);
  } catch {
    return undefined;
  }
}
