import { safeRead } from "../../shared/schema/index.js";
import {
  MAX_PARAMETER_TEXT_CHARS,
  MAX_PARAMETER_TEXT_DEPTH,
  MAX_PARAMETER_TEXT_NODES,
  MAX_SCHEMA_ARRAY_ITEMS,
} from "./limits.js";

/** Walk state: where text goes, the chain of schemas being visited (for cycles), and the budgets used. */
type Walk = { emit: (text: string) => void; ancestors: object[]; nodes: number; chars: number };

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
  const parts: string[] = [];
  forEachParameterText(schema, (text) => parts.push(text));
  return parts;
}

/** Hands each piece of `parameterText` to `emit`, in walk order, without collecting them. */
export function forEachParameterText(schema: unknown, emit: (text: string) => void): void {
  visit({ emit, ancestors: [], nodes: 0, chars: 0 }, schema, 0);
}

/** The fields of a schema node the walk reads. */
type SchemaFields = {
  description?: unknown;
  properties?: unknown;
  items?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  allOf?: unknown;
};

function visit(walk: Walk, node: unknown, depth: number): void {
  if (typeof node !== "object" || node === null || walk.ancestors.includes(node)) return;
  if (walk.nodes >= MAX_PARAMETER_TEXT_NODES || walk.chars >= MAX_PARAMETER_TEXT_CHARS) return;
  walk.nodes += 1;
  walk.ancestors.push(node);
  const deep = depth < MAX_PARAMETER_TEXT_DEPTH;
  const schema = node as SchemaFields;
  let description: unknown;
  let properties: unknown;
  let items: unknown;
  let anyOf: unknown;
  let oneOf: unknown;
  let allOf: unknown;
  // Plain property loads (fast on ordinary schemas); if one throws (a throwing getter, a revoked Proxy), every
  // field is read again on its own through `safeRead`, so one bad field does not hide the others.
  try {
    description = schema.description;
    if (deep) {
      properties = schema.properties;
      items = schema.items;
      anyOf = schema.anyOf;
      oneOf = schema.oneOf;
      allOf = schema.allOf;
    }
  } catch {
    description = safeRead(node, "description");
    if (deep) {
      properties = safeRead(node, "properties");
      items = safeRead(node, "items");
      anyOf = safeRead(node, "anyOf");
      oneOf = safeRead(node, "oneOf");
      allOf = safeRead(node, "allOf");
    }
  }
  if (typeof description === "string") add(walk, description);
  for (const key of ownKeys(properties)) {
    add(walk, key);
    visit(walk, safeRead(properties, key), depth + 1);
  }
  if (isArray(items)) visitList(walk, items, depth + 1);
  else visit(walk, items, depth + 1);
  visitList(walk, anyOf, depth + 1);
  visitList(walk, oneOf, depth + 1);
  visitList(walk, allOf, depth + 1);
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
  walk.emit(kept);
  walk.chars += kept.length + 1;
}

function ownKeys(value: unknown): string[] {
  if (typeof value !== "object" || value === null || isArray(value)) return [];
  try {
    const keys = Object.keys(value);
    return keys.length > MAX_PARAMETER_TEXT_NODES ? keys.slice(0, MAX_PARAMETER_TEXT_NODES) : keys;
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
