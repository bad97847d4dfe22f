import * as z from "zod";
import { configFileSchema } from "./config-schema.js";
import { DEFAULT_MAX_TURNS, DEFAULT_RUN_TIMEOUT_MS } from "./limits.js";
import { DEFAULT_AGENT_MODEL } from "./resolve-agent.js";

/** A JSON Schema node as zod writes it (only the parts the reference reads). */
type SchemaNode = {
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
 * Defaults the schema cannot carry (they are applied where each setting is read); a key missing here has no
 * default (unset means off, or none). `<id>` stands for a map key (a provider, agent or server id).
 */
const DEFAULTS: Readonly<Record<string, string>> = {
  "models.providers.<id>.baseUrl":
    "https://api.openai.com/v1 (https://api.anthropic.com for anthropic-messages)",
  "models.providers.<id>.apiKey": "OPENAI_API_KEY / ANTHROPIC_API_KEY for the real APIs",
  "models.providers.<id>.timeoutMs": "120000",
  "models.providers.<id>.maxRetries": "2",
  "agents.defaults.model": DEFAULT_AGENT_MODEL,
  "agents.defaults.harness": "embedded",
  "agents.defaults.maxTurns": String(DEFAULT_MAX_TURNS),
  "agents.defaults.runTimeoutMs": String(DEFAULT_RUN_TIMEOUT_MS),
  "tools.toolSearch": "automatic (on, tools mode; see the README's Tool Search section)",
  "gateway.bind": "127.0.0.1",
  "gateway.port": "18789",
  "state.url":
    "TOOLSIFT_STATE_URL, else files under TOOLSIFT_STATE_DIR (a postgresql:// URL; see docs/fleet.md)",
};

const HEADER = `# Config reference

Generated from the config schema (\`src/runtime/config/config-schema.ts\`) by \`npm run docs:config\`; do not edit by
hand: \`src/runtime/config/config-reference.test.ts\` fails when this file is stale.

The config file is JSON5 at \`$TOOLSIFT_HOME/toolsift.json\` (default \`~/.toolsift/toolsift.json\`), or the
file \`--config FILE\` / \`TOOLSIFT_CONFIG\` names (which must exist). State (session logs) lives in
\`$TOOLSIFT_STATE_DIR\` (default \`$TOOLSIFT_HOME/state\`), or, with \`state.url\` (or \`TOOLSIFT_STATE_URL\`),
in PostgreSQL, shared by a fleet of gateways (docs/fleet.md). Every object is strict: an unknown key is an error.
Any string value may be \`"env:NAME"\`, read from the environment at start. \`<id>\` is a map key: letters,
digits, \`.\`, \`_\`, \`-\`, at most 64. \`toolsift config set <path> <value>\` edits the file;
\`toolsift doctor\` checks it.

| key | type and allowed values | default |
| --- | --- | --- |
`;

/** docs/config.md's text: every key of the config schema with its type, allowed values and default. */
export function renderConfigReference(): string {
  const root = z.toJSONSchema(configFileSchema, { unrepresentable: "any", io: "input" }) as SchemaNode;
  const rows: string[] = [];
  walk(root, [], rows);
  return `${HEADER}${rows.join("\n")}\n`;
}

function walk(node: SchemaNode, path: string[], rows: string[]): void {
  const key = path.join(".").replaceAll(".[]", "[]");
  if (path.length > 0) rows.push(`| \`${key}\` | ${describe(node)} | ${cell(DEFAULTS[key] ?? "")} |`);
  if (node.properties) {
    for (const [name, child] of Object.entries(node.properties)) walk(child, [...path, name], rows);
  }
  if (typeof node.additionalProperties === "object" && node.additionalProperties.properties)
    walk(node.additionalProperties, [...path, "<id>"], rows);
  if (node.items?.properties) walk(node.items, [...path, "[]"], rows);
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
