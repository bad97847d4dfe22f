import { safeRead } from "../schema/index.js";

/**
 * The names or ids in `tools.toolSearch.alwaysVisible` (operator pinning of native tools; the value was
 * validated when the config was resolved). Anything that is not an object with a list gives none.
 */
export function configuredPins(config: unknown): string[] {
  if (typeof config !== "object" || config === null) return [];
  const list = safeRead(config, "alwaysVisible");
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is string => typeof item === "string" && item.length > 0);
}
