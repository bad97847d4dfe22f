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
