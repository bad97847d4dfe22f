import { safeRead, safeReadString } from "../../shared/schema/index.js";
import type { ToolDefinition } from "../catalog/index.js";

/**
 * A copy of a client-supplied tool that is always attributed to the client, whatever origin it claims:
 * a client can never make its tool look native (trusted) or core (promotable to the visible surface). Its
 * owner (a Responses namespace) is kept when the definition says it is a client tool and the owner is a plain
 * name, else `client`.
 * Returns undefined for a definition without a usable name or execute function.
 */
export function asClientTool(tool: ToolDefinition): ToolDefinition | undefined {
  const name = safeReadString(tool, "name");
  const execute = safeRead(tool, "execute");
  if (name.length === 0 || typeof execute !== "function") return undefined;
  const copy: ToolDefinition = {
    name,
    origin: { kind: "client", owner: clientOwner(safeRead(tool, "origin")) },
    execute: (args, context) =>
      Reflect.apply(execute, tool, [args, context]) as ReturnType<ToolDefinition["execute"]>,
  };
  const label = safeRead(tool, "label");
  if (typeof label === "string") copy.label = label;
  const description = safeRead(tool, "description");
  if (typeof description === "string") copy.description = description;
  const parameters = safeRead(tool, "parameters");
  if (parameters !== undefined) copy.parameters = parameters as NonNullable<ToolDefinition["parameters"]>;
  if (safeRead(tool, "catalogMode") === "direct-only") copy.catalogMode = "direct-only";
  if (safeRead(tool, "executionMode") === "sequential") copy.executionMode = "sequential";
  if (safeRead(tool, "deferLoading") === true) copy.deferLoading = true;
  return copy;
}

/** Owners a client may name: what an id segment can hold (`client:<owner>:<name>`). */
const CLIENT_OWNER_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/u;

function clientOwner(origin: unknown): string {
  if (safeReadString(origin, "kind") !== "client") return "client";
  const owner = safeReadString(origin, "owner");
  return CLIENT_OWNER_PATTERN.test(owner) ? owner : "client";
}
