import { type CatalogEntry, CORE_PRIMITIVE_NAMES } from "../../core/catalog/index.js";
import type { PolicyDecision } from "../../core/execution/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { cutText } from "../../shared/text/index.js";
import type { ToolPolicySettings } from "../config/index.js";
import { MAX_SHOWN_SELECTOR_CHARS } from "./limits.js";
import { matchesSelector } from "./selector.js";
import type { PolicyLayers } from "./types.js";

/** The profile a layer without `profile` uses. */
export const DEFAULT_PROFILE = "full";

/**
 * Whether the policy admits one catalog entry: every present layer (global, then agent, then sandbox) must
 * admit it, so later layers only narrow. The reason of a denial names the layer and the selector, e.g.
 * `denied by tools.deny "exec"` or `not in agents.list[main].tools.allow`. Used up front by
 * applyToolPolicy and again at call time (the executor's `checkPolicy`).
 */
export function policyDecision(entry: CatalogEntry, layers: PolicyLayers): PolicyDecision {
  for (const { settings, label } of presentLayers(layers)) {
    const reason = layerDenial(entry, settings, label);
    if (reason !== undefined) return { allowed: false, reason };
  }
  return { allowed: true };
}

/** The layers that are set, each with the config path it came from. */
export function presentLayers(layers: PolicyLayers): Array<{ settings: ToolPolicySettings; label: string }> {
  const agentId = typeof layers.agentId === "string" ? cutText(layers.agentId, MAX_SHOWN_SELECTOR_CHARS) : "";
  const agent = `agents.list[${agentId}]`;
  const found: Array<{ settings: ToolPolicySettings; label: string }> = [];
  if (layers.global) found.push({ settings: layers.global, label: "tools" });
  if (layers.agent) found.push({ settings: layers.agent, label: `${agent}.tools` });
  if (layers.sandbox) found.push({ settings: layers.sandbox, label: `${agent}.sandbox.tools` });
  return found;
}

/**
 * One layer: deny wins; a non-empty allow list admits only allow ∪ alsoAllow; else the profile plus alsoAllow.
 * A list that is set but not an array (only possible past config validation) fails closed.
 */
function layerDenial(entry: CatalogEntry, settings: ToolPolicySettings, label: string): string | undefined {
  const matches = (selector: string): boolean => matchesSelector(entry, selector);
  const deny = selectorList(settings, "deny");
  if (deny === "malformed") return `denied because ${label}.deny is not a list of selectors`;
  const denyHit = deny.find(matches);
  if (denyHit !== undefined) return `denied by ${label}.deny ${quote(denyHit)}`;

  const alsoAllow = selectorList(settings, "alsoAllow");
  const alsoAllowed = alsoAllow !== "malformed" && alsoAllow.some(matches);
  const allow = selectorList(settings, "allow");
  if (allow === "malformed") {
    return alsoAllowed ? undefined : `denied because ${label}.allow is not a list of selectors`;
  }
  if (allow.length > 0) {
    return allow.some(matches) || alsoAllowed ? undefined : `not in ${label}.allow`;
  }
  const profile = readProfile(settings);
  if (profileAdmits(entry, profile) || alsoAllowed) return undefined;
  return `not admitted by ${label}.profile ${quote(profile)}`;
}

/** `minimal` admits no core tool, `coding` the core coding primitives, `full` every core tool; others always. */
function profileAdmits(entry: CatalogEntry, profile: string): boolean {
  if (!entry.fromCore) return true;
  if (profile === "full") return true;
  if (profile === "coding") return CORE_PRIMITIVE_NAMES.has(entry.name);
  return false;
}

/** The layer's profile; an unknown value fails closed (as `minimal` does). */
function readProfile(settings: ToolPolicySettings): string {
  const profile = safeRead(settings, "profile");
  if (profile === undefined) return DEFAULT_PROFILE;
  return typeof profile === "string" ? profile : "minimal";
}

/** The string selectors of one key (non-strings in the list match nothing); `malformed` when it is not a list. */
function selectorList(
  settings: ToolPolicySettings,
  key: "allow" | "alsoAllow" | "deny",
): string[] | "malformed" {
  const list = safeRead(settings, key);
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return "malformed";
  return list.filter((item): item is string => typeof item === "string");
}

function quote(selector: string): string {
  return JSON.stringify(cutText(selector, MAX_SHOWN_SELECTOR_CHARS));
}
