import { safeRead } from "../../shared/schema/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_SHOWN_SELECTOR_CHARS } from "./limits.js";
import { parseSelector } from "./selector.js";

/** Profiles a policy layer may name; `full` is the default. */
const KNOWN_PROFILES: readonly string[] = ["minimal", "coding", "full"];

const LIST_KEYS = ["allow", "alsoAllow", "deny"] as const;

/**
 * Problems in one policy layer, for `doctor`: unknown groups, malformed selectors, empty entries, a bad
 * profile. Each is `path: reason`, with `path` starting at `label` (default `tools`). An empty list means the
 * layer is well formed. Reads `settings` as untrusted input.
 */
export function validatePolicySelectors(settings: unknown, label = "tools"): string[] {
  if (settings === undefined) return [];
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    return [`${label}: expected an object with profile, allow, alsoAllow and deny`];
  }
  const problems: string[] = [];
  const profile = safeRead(settings, "profile");
  if (profile !== undefined && (typeof profile !== "string" || !KNOWN_PROFILES.includes(profile))) {
    problems.push(`${label}.profile: expected ${KNOWN_PROFILES.map((name) => `"${name}"`).join(" | ")}`);
  }
  for (const key of LIST_KEYS) {
    const list = safeRead(settings, key);
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problems.push(`${label}.${key}: expected a list of selectors, e.g. ["group:fs", "weather_*"]`);
      continue;
    }
    list.forEach((item: unknown, index) => {
      const path = `${label}.${key}[${index}]`;
      if (typeof item !== "string") {
        problems.push(`${path}: expected a selector string`);
        return;
      }
      const parsed = parseSelector(item);
      if (parsed.kind === "invalid") {
        problems.push(
          `${path}: ${JSON.stringify(cutText(item, MAX_SHOWN_SELECTOR_CHARS))} ${parsed.problem}`,
        );
      }
    });
  }
  return problems;
}
