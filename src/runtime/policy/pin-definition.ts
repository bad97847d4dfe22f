import { types } from "node:util";
import type { CatalogEntry, JsonSchema, ToolDefinition, ToolOrigin } from "../../core/catalog/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { safeRead } from "../../shared/schema/index.js";

/**
 * The definition to hand on after the policy admitted `entry`. A plain definition (own data properties,
 * no Proxy) reads the same every time and is returned as is. Anything else (getters, Proxies) could show
 * the policy one name and the catalog another, so it is replaced by a copy pinned to the values the
 * policy judged, whose `execute` calls the original.
 */
export function pinDefinition(tool: ToolDefinition, entry: CatalogEntry): ToolDefinition {
  if (readsStably(tool)) return tool;
  const execute = safeRead(tool, "execute");
  const catalogMode = safeRead(tool, "catalogMode") === "direct-only" ? "direct-only" : "catalog";
  const pinned: ToolDefinition = {
    name: entry.name,
    label: entry.label,
    description: entry.description,
    origin: pinnedOrigin(entry),
    catalogMode,
    executionMode: entry.executionMode,
    resultSource: entry.resultSource,
    execute:
      typeof execute === "function"
        ? (args, context) => Reflect.apply(execute, tool, [args, context])
        : async () => {
            throw new ToolsiftError(
              "TOOL_UNAVAILABLE",
              `Tool "${entry.name}" has no execute function any more; choose another tool.`,
            );
          },
  };
  if (entry.parameters !== undefined) pinned.parameters = entry.parameters as JsonSchema;
  if (entry.outputSchema !== undefined) pinned.outputSchema = entry.outputSchema as JsonSchema;
  if (entry.deferred) pinned.deferLoading = true;
  return Object.freeze(pinned);
}

function pinnedOrigin(entry: CatalogEntry): ToolOrigin {
  if (entry.fromCore) return { kind: "core", owner: "core" };
  if (entry.source === "mcp") return { kind: "mcp", owner: entry.owner };
  if (entry.source === "client") return { kind: "client", owner: entry.owner };
  return { kind: "plugin", owner: entry.owner };
}

/** True when the identity fields (`name`, `origin.kind`, `origin.owner`) are plain data that cannot change on read. */
function readsStably(tool: ToolDefinition): boolean {
  if (!isUnproxiedObject(tool) || !isDataProperty(tool, "name")) return false;
  if (!("origin" in tool)) return true;
  if (!isDataProperty(tool, "origin")) return false;
  const origin: unknown = tool.origin;
  if (origin === undefined || origin === null) return true;
  if (!isUnproxiedObject(origin)) return false;
  return ["kind", "owner"].every((key) => !(key in origin) || isDataProperty(origin, key));
}

/** Any object but a Proxy (class instances and arrays included): not the shared `isPlainObject`, which a Proxy passes. */
function isUnproxiedObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !types.isProxy(value);
}

function isDataProperty(value: object, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor !== undefined && "value" in descriptor;
}
