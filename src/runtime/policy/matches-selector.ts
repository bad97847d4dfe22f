import type { CatalogEntry } from "../../core/catalog/index.js";
import { type ParsedSelector, parseSelector } from "./parse-selector.js";
import { matchWildcard } from "./wildcard-match.js";

/** Core tools `group:runtime` stands for (core origin only). */
const RUNTIME_GROUP_NAMES: ReadonlySet<string> = new Set(["exec", "process"]);

/** Core tools `group:fs` stands for (core origin only). */
const FS_GROUP_NAMES: ReadonlySet<string> = new Set(["read", "write", "edit"]);

/**
 * True when a policy selector names the catalog entry: an exact or globbed name (`weather_*`), an exact or
 * globbed id (`native:weather:get_forecast`), a group (`group:fs`, `group:runtime`, `group:plugins`,
 * `group:mcp`, `group:client`) or an owner (`plugin:<id>`, `mcp:<server>`). Unknown groups and malformed
 * selectors match nothing.
 */
export function matchesSelector(entry: CatalogEntry, selector: string): boolean {
  if (typeof selector !== "string") return false;
  return matchesParsed(entry, parseSelector(selector));
}

/** {@link matchesSelector} for an already parsed selector. */
export function matchesParsed(entry: CatalogEntry, selector: ParsedSelector): boolean {
  switch (selector.kind) {
    case "name":
      return matchWildcard(selector.pattern, entry.name);
    case "id":
      return matchWildcard(selector.pattern, entry.id);
    case "owner":
      return ownerSource(entry) === selector.source && matchWildcard(selector.pattern, entry.owner);
    case "group":
      return inGroup(entry, selector.group);
    case "invalid":
      return false;
  }
}

function ownerSource(entry: CatalogEntry): "plugin" | "mcp" | undefined {
  if (entry.source === "mcp") return "mcp";
  if (entry.source === "native" && !entry.fromCore) return "plugin";
  return undefined;
}

function inGroup(entry: CatalogEntry, group: string): boolean {
  switch (group) {
    case "fs":
      return entry.fromCore && FS_GROUP_NAMES.has(entry.name);
    case "runtime":
      return entry.fromCore && RUNTIME_GROUP_NAMES.has(entry.name);
    case "plugins":
      return entry.source === "native" && !entry.fromCore;
    case "mcp":
      return entry.source === "mcp";
    case "client":
      return entry.source === "client";
    default:
      return false;
  }
}
