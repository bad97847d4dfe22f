import type { ProviderTool } from "../../runtime/providers/index.js";

/** `mcp__<server>__<tool>`: how MCP clients (Claude Code, Codex) name the tools of their MCP servers. */
const MCP_CLIENT_NAME = /^mcp__(.+?)__(.+)$/su;

/** Characters that already end a namespace, so its tools' names are joined to it without a `.`. */
const NAMESPACE_SEPARATOR = /[_.:/]$/u;

/**
 * A tool's name as the script reasons about it: without an MCP client's `mcp__<server>__` prefix and without
 * a namespace qualifier (`<namespace>.<name>`), so `mcp__toolsift__tool_search` is the `tool_search` control.
 */
export function baseToolName(name: string): string {
  const unprefixed = MCP_CLIENT_NAME.exec(name)?.[2] ?? name;
  const dot = unprefixed.lastIndexOf(".");
  return dot === -1 ? unprefixed : unprefixed.slice(dot + 1);
}

/** Whether a declared name is an MCP client's name for a tool of one of its MCP servers. */
export function isMcpClientName(name: string): boolean {
  return MCP_CLIENT_NAME.test(name);
}

/**
 * The one name the mock uses for a function of a Responses `namespace` tool (and for a call that names its
 * `namespace`): the two joined as they are when the namespace already ends in `_`, `.`, `:` or `/`; with `__`
 * for an MCP client's namespace (Codex's `mcp__toolsift` + `tool_search` is `mcp__toolsift__tool_search`, the
 * name Claude Code gives the same tool); else with a `.`.
 */
export function joinNamespace(namespace: string, name: string): string {
  if (NAMESPACE_SEPARATOR.test(namespace)) return `${namespace}${name}`;
  return namespace.startsWith("mcp__") ? `${namespace}__${name}` : `${namespace}.${name}`;
}

/** A namespaced function as the answer must name it again: its namespace and its own name. */
export type NamespacedName = { namespace: string; name: string };

/** The declared tools, found by their exact name or, when that is not declared, by their base name. */
export type DeclaredTools = {
  /** The declared name answering `name` (exact first, else the first tool whose base name is `name`). */
  nameOf(name: string): string | undefined;
  get(name: string): ProviderTool | undefined;
  has(name: string): boolean;
};

/** Indexes a request's tools for the planner (see `baseToolName`). */
export function declaredTools(tools: readonly ProviderTool[]): DeclaredTools {
  const exact = new Map<string, ProviderTool>();
  const byBase = new Map<string, ProviderTool>();
  for (const tool of tools) {
    if (!exact.has(tool.name)) exact.set(tool.name, tool);
    const base = baseToolName(tool.name);
    if (!byBase.has(base)) byBase.set(base, tool);
  }
  const get = (name: string) => exact.get(name) ?? byBase.get(name);
  return { get, has: (name) => get(name) !== undefined, nameOf: (name) => get(name)?.name };
}
