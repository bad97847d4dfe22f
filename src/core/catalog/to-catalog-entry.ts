import { safeRead, safeReadString } from "../../shared/schema/index.js";
import type { CatalogEntry, EntrySource, ToolDefinition } from "./types.js";

/**
 * Copies what the catalog needs from a tool definition, reading each field once and trusting nothing:
 * throwing getters, Proxies and non-string values become defaults. Returns `undefined` for a definition
 * without a usable name or `execute` function, which cannot be cataloged.
 */
export function toCatalogEntry(tool: ToolDefinition): CatalogEntry | undefined {
  const name = safeReadString(tool, "name");
  if (name.length === 0) return undefined;
  const execute = safeRead(tool, "execute");
  if (typeof execute !== "function") return undefined;

  const origin = safeRead(tool, "origin");
  const kindRaw = safeReadString(origin, "kind", "core");
  const kind = kindRaw === "plugin" || kindRaw === "mcp" || kindRaw === "client" ? kindRaw : "core";
  const source: EntrySource = kind === "mcp" ? "mcp" : kind === "client" ? "client" : "native";
  const declaredOwner = safeReadString(origin, "owner");
  const owner = kind === "core" ? "core" : declaredOwner || kind;

  const parameters = safeRead(tool, "parameters");
  const entry: CatalogEntry = {
    id: `${source}:${owner}:${name}`,
    source,
    owner,
    name,
    label: safeReadString(tool, "label"),
    description: safeReadString(tool, "description"),
    parameters,
    outputSchema: source === "native" ? safeRead(tool, "outputSchema") : undefined,
    ...(source === "mcp" ? { mcp: { server: owner, tool: name } } : {}),
    fromCore: kind === "core",
    executionMode: safeRead(tool, "executionMode") === "sequential" ? "sequential" : "parallel",
    resultSource: source !== "native" || safeRead(tool, "resultSource") === "network" ? "network" : "local",
    pinned: source !== "client" && safeRead(tool, "alwaysVisible") === true,
    deferred: source === "client" && safeRead(tool, "deferLoading") === true,
    tool,
  };
  return entry;
}
