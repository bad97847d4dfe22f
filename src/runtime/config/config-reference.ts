import * as z from "zod";
import { configFileSchema } from "./config-schema.js";

/** A JSON Schema node as zod writes it (only the parts the reference reads). */
export type SchemaNode = {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  propertyNames?: SchemaNode;
};

/**
 * What the reference says about one key beside its schema: its default (applied where the setting is read;
 * none means unset is off, or none) and an example value. `<id>` stands for a map key (a provider, agent or
 * server id), `[]` for a list item.
 */
export type ConfigKeyNote = { default?: string; example?: unknown };

const HEADER = `# Config reference

Generated from the config schema (\`src/runtime/config/config-schema.ts\`) and each key's default and example
(\`src/front-doors/cli/config-key-notes.ts\`, the defaults taken from the constants the code applies) by
\`npm run docs:config\`; do not edit by hand: \`src/runtime/config/config-reference.test.ts\` fails when this
file is stale. A key without a default is off, or none, when unset.

The config file is JSON5 at \`$TOOLSIFT_HOME/toolsift.json\` (default \`~/.toolsift/toolsift.json\`), or the
file \`--config FILE\` / \`TOOLSIFT_CONFIG\` names (which must exist). State (session logs) lives in
\`$TOOLSIFT_STATE_DIR\` (default \`$TOOLSIFT_HOME/state\`), or, with \`state.url\` (or \`TOOLSIFT_STATE_URL\`),
in PostgreSQL, shared by a fleet of gateways (docs/fleet.md). Every object is strict: an unknown key is an error.
Any string value may be \`"env:NAME"\`, read from the environment at start. \`<id>\` is a map key: letters,
digits, \`.\`, \`_\`, \`-\`, at most 64. \`toolsift config set <path> <value>\` edits the file;
\`toolsift doctor\` checks it.

| key | type and allowed values | default | example |
| --- | --- | --- | --- |
`;

/** One key of the config schema: its dotted path (`<id>` for a map key, `[]` for a list item) and its node. */
export type ConfigKey = { key: string; node: SchemaNode; leaf: boolean };

/** Every key of the config schema, nested ones and map and list entries included, in schema order. */
export function configKeys(): ConfigKey[] {
  const root = z.toJSONSchema(configFileSchema, { unrepresentable: "any", io: "input" }) as SchemaNode;
  const keys: ConfigKey[] = [];
  walk(root, [], keys);
  return keys;
}

/**
 * docs/config.md's text: every key of the config schema with its type, allowed values, default and an
 * example, from `notes` (keyed like ConfigKey.key).
 */
export function renderConfigReference(notes: Readonly<Record<string, ConfigKeyNote>>): string {
  const rows = configKeys().map(({ key, node }) => {
    const note = notes[key] ?? {};
    const example = note.example === undefined ? "" : `\`${JSON.stringify(note.example)}\``;
    return `| \`${key}\` | ${describe(node)} | ${cell(note.default ?? "")} | ${cell(example)} |`;
  });
  return `${HEADER}${rows.join("\n")}\n`;
}

function walk(node: SchemaNode, path: string[], keys: ConfigKey[]): void {
  const nested = node.properties !== undefined || isEntryMap(node) || node.items?.properties !== undefined;
  if (path.length > 0) keys.push({ key: path.join(".").replaceAll(".[]", "[]"), node, leaf: !nested });
  if (node.properties) {
    for (const [name, child] of Object.entries(node.properties)) walk(child, [...path, name], keys);
  }
  if (typeof node.additionalProperties === "object" && node.additionalProperties.properties)
    walk(node.additionalProperties, [...path, "<id>"], keys);
  if (node.items?.properties) walk(node.items, [...path, "[]"], keys);
}

function isEntryMap(node: SchemaNode): boolean {
  return typeof node.additionalProperties === "object" && node.additionalProperties.properties !== undefined;
}

function describe(node: SchemaNode): string {
  if (node.enum) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(", ");
  const type = Array.isArray(node.type) ? node.type.join(" or ") : node.type;
  if (type === undefined) return "any value (checked by its owner)";
  if (type === "integer" && node.minimum !== undefined && node.maximum !== undefined)
    return `integer ${node.minimum} to ${node.maximum}`;
  if (type === "string") return node.minLength ? "non-empty string" : "string";
  if (type === "array")
    return `list of ${node.items?.properties ? "object" : describe(node.items ?? {})} items`;
  if (type === "object" && !node.properties) {
    const values = typeof node.additionalProperties === "object" ? node.additionalProperties : {};
    return values.properties ? "map of `<id>` to object" : `map of name to ${describe(values)}`;
  }
  return type;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}
