import { safeRead } from "../schema/index.js";
import {
  MAX_PARAMETER_TEXT_CHARS,
  MAX_SCHEMA_ARRAY_ITEMS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
} from "./limits.js";

const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf"] as const;

/**
 * The searchable text of a trusted (`native`) input schema: its `description`s and property names, walking
 * `properties`, `items`, `anyOf`, `oneOf` and `allOf` down to level 4 (the root is level 0). `const` and
 * `enum` are never read and boolean schemas add nothing. Every read goes through `safeRead`, so throwing
 * getters, Proxies and cycles cannot escape; the walk is bounded in nodes, items and characters.
 * Never call it on an MCP or client schema: those are opaque.
 */
export function parameterText(schema: unknown): string {
  const parts: string[] = [];
  const visiting = new Set<object>();
  let nodes = 0;
  let chars = 0;

  const add = (text: string): void => {
    if (chars >= MAX_PARAMETER_TEXT_CHARS || text.length === 0) return;
    const kept =
      text.length > MAX_PARAMETER_TEXT_CHARS - chars ? text.slice(0, MAX_PARAMETER_TEXT_CHARS - chars) : text;
    parts.push(kept);
    chars += kept.length + 1;
  };

  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== "object" || node === null || visiting.has(node)) return;
    if (nodes >= MAX_SCHEMA_NODES || chars >= MAX_PARAMETER_TEXT_CHARS) return;
    nodes += 1;
    visiting.add(node);
    const description = safeRead(node, "description");
    if (typeof description === "string") add(description);
    if (depth < MAX_SCHEMA_DEPTH) {
      const properties = safeRead(node, "properties");
      for (const key of ownKeys(properties)) {
        add(key);
        visit(safeRead(properties, key), depth + 1);
      }
      const items = safeRead(node, "items");
      if (isArray(items)) visitList(items, depth + 1);
      else visit(items, depth + 1);
      for (const list of SUBSCHEMA_LISTS) visitList(safeRead(node, list), depth + 1);
    }
    visiting.delete(node);
  };

  const visitList = (list: unknown, depth: number): void => {
    if (!isArray(list)) return;
    const declared = safeRead(list, "length");
    const length = typeof declared === "number" ? Math.min(declared, MAX_SCHEMA_ARRAY_ITEMS) : 0;
    for (let index = 0; index < length; index += 1) visit(safeRead(list, String(index)), depth);
  };

  visit(schema, 0);
  return parts.join("\n");
}

function ownKeys(value: unknown): string[] {
  if (typeof value !== "object" || value === null || isArray(value)) return [];
  try {
    return Object.keys(value).slice(0, MAX_SCHEMA_NODES);
  } catch {
    return [];
  }
}

function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}
