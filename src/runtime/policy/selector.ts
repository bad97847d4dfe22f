/** Policy selectors: parsing and checking them, glob matching, and matching them against catalog entries. */

import type { CatalogEntry } from "../../core/catalog/index.js";

/** Every `group:<name>` a selector may name; any other group matches nothing. */
const KNOWN_GROUPS: readonly string[] = ["fs", "runtime", "plugins", "mcp", "client"];

/** A policy selector, classified once; `invalid` selectors match nothing and carry the problem. */
export type ParsedSelector =
  | { kind: "name"; pattern: string }
  | { kind: "id"; pattern: string }
  | { kind: "group"; group: string }
  | { kind: "owner"; source: "plugin" | "mcp"; pattern: string }
  | { kind: "invalid"; problem: string };

const ID_SOURCES: ReadonlySet<string> = new Set(["native", "mcp", "client"]);

/**
 * Classifies a selector: `group:<name>`, an owner (`plugin:<id>`, `mcp:<server>`), a catalog id
 * (`<source>:<owner>:<name>`), or else a tool name. `*` and `?` glob in names, owners and ids.
 */
export function parseSelector(selector: string): ParsedSelector {
  if (selector.trim().length === 0) return { kind: "invalid", problem: "an empty selector matches nothing" };
  if (selector.trim() !== selector) {
    return {
      kind: "invalid",
      problem: `has leading or trailing spaces and matches nothing; write ${JSON.stringify(selector.trim())}`,
    };
  }
  if (selector.startsWith("group:")) {
    const group = selector.slice("group:".length);
    if (KNOWN_GROUPS.includes(group)) return { kind: "group", group };
    return {
      kind: "invalid",
      problem: `unknown group matches nothing; known groups: ${KNOWN_GROUPS.map((name) => `group:${name}`).join(", ")}`,
    };
  }
  const colon = selector.indexOf(":");
  if (colon === -1) return { kind: "name", pattern: selector };
  const prefix = selector.slice(0, colon);
  const rest = selector.slice(colon + 1);
  if (!rest.includes(":") && (prefix === "plugin" || prefix === "mcp")) {
    if (rest.length === 0) {
      return { kind: "invalid", problem: `names no ${prefix === "plugin" ? "plugin id" : "MCP server"}` };
    }
    return { kind: "owner", source: prefix, pattern: rest };
  }
  if (ID_SOURCES.has(prefix) && rest.includes(":")) return { kind: "id", pattern: selector };
  return {
    kind: "invalid",
    problem:
      "is not a tool name, a glob, a group (group:fs), an owner (plugin:<id>, mcp:<server>) or a tool id " +
      "(<source>:<owner>:<name>, e.g. native:weather:get_forecast); it matches nothing",
  };
}

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

/**
 * Glob match where `*` is any run of characters (also none) and `?` is exactly one character; every other
 * character, regex metacharacters included, matches only itself. No regex is built, and the two-pointer
 * scan is O(pattern × text) at worst, so a hostile pattern cannot blow up.
 */
export function matchWildcard(pattern: string, text: string): boolean {
  const glob = Array.from(pattern);
  const chars = Array.from(text);
  let globIndex = 0;
  let textIndex = 0;
  let starIndex = -1;
  let starText = 0;
  while (textIndex < chars.length) {
    const globChar = glob[globIndex];
    if (globChar !== undefined && globChar !== "*" && (globChar === "?" || globChar === chars[textIndex])) {
      globIndex += 1;
      textIndex += 1;
    } else if (globChar === "*") {
      starIndex = globIndex;
      starText = textIndex;
      globIndex += 1;
    } else if (starIndex !== -1) {
      globIndex = starIndex + 1;
      starText += 1;
      textIndex = starText;
    } else {
      return false;
    }
  }
  while (glob[globIndex] === "*") globIndex += 1;
  return globIndex === glob.length;
}
