import { safeRead } from "../schema/index.js";
import {
  MAX_PARAMETER_TEXT_CHARS,
  MAX_SCHEMA_ARRAY_ITEMS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
} from "./limits.js";

const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf"] as const;

/** Walk state: collected text, the chain of schemas being visited (for cycles), and the budgets used. */
type Walk = { parts: string[]; ancestors: object[]; nodes: number; chars: number };

/**
 * The searchable text of a trusted (`native`) input schema: its `description`s and property names, walking
 * `properties`, `items`, `anyOf`, `oneOf` and `allOf` down to level 4 (the root is level 0). `const` and
 * `enum` are never read and boolean schemas add nothing. Every read goes through `safeRead`, so throwing
 * getters, Proxies and cycles cannot escape; the walk is bounded in nodes, items and characters.
 * Never call it on an MCP or client schema: those are opaque.
 */
export function parameterText(schema: unknown): string {
  return parameterTexts(schema).join("\n");
}

/** The pieces of `parameterText`, in walk order (each description and property name on its own). */
export function parameterTexts(schema: unknown): string[] {
  const walk: Walk = { parts: [], ancestors: [], nodes: 0, chars: 0 };
  visit(walk, schema, 0);
  return walk.parts;
}

function visit(walk: Walk, node: unknown, depth: number): void {
  if (typeof node !== "object" || node === null || walk.ancestors.includes(node)) return;
  if (walk.nodes >= MAX_SCHEMA_NODES || walk.chars >= MAX_PARAMETER_TEXT_CHARS) return;
  walk.nodes += 1;
  walk.ancestors.push(node);
  const description = safeRead(node, "description");
  if (typeof description === "string") add(walk, description);
  if (depth < MAX_SCHEMA_DEPTH) {
    const properties = safeRead(node, "properties");
    for (const key of ownKeys(properties)) {
      add(walk, key);
      visit(walk, safeRead(properties, key), depth + 1);
    }
    const items = safeRead(node, "items");
    if (isArray(items)) visitList(walk, items, depth + 1);
    else visit(walk, items, depth + 1);
    for (const list of SUBSCHEMA_LISTS) visitList(walk, safeRead(node, list), depth + 1);
  }
  walk.ancestors.pop();
}

function visitList(walk: Walk, list: unknown, depth: number): void {
  if (!isArray(list)) return;
  const declared = safeRead(list, "length");
  const length = typeof declared === "number" ? Math.min(declared, MAX_SCHEMA_ARRAY_ITEMS) : 0;
  for (let index = 0; index < length; index += 1) visit(walk, safeRead(list, String(index)), depth);
}

function add(walk: Walk, text: string): void {
  if (walk.chars >= MAX_PARAMETER_TEXT_CHARS || text.length === 0) return;
  const room = MAX_PARAMETER_TEXT_CHARS - walk.chars;
  const kept = text.length > room ? text.slice(0, room) : text;
  walk.parts.push(kept);
  walk.chars += kept.length + 1;
}

function ownKeys(value: unknown): string[] {
  if (typeof value !== "object" || value === null || isArray(value)) return [];
  try {
    const keys = Object.keys(value);
    return keys.length > MAX_SCHEMA_NODES ? keys.slice(0, MAX_SCHEMA_NODES) : keys;
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
