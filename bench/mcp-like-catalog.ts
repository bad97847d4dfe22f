import { mkdirSync, writeFileSync } from "node:fs";
import { isEntryPoint } from "./entry-point.js";
import { MCP_LIKE_EXTRA_TOOLS } from "./mcp-like-extras.js";
import { HOLDOUT_TOOLS } from "./mcp-like-holdout-tools.js";
import { MCP_LIKE_SERVERS, PAGE, type Resource, type Verb } from "./mcp-like-servers.js";

/** Where the generated catalog is written (beside the hand-written queries). */
export const MCP_LIKE_DIRECTORY = new URL("./data/mcp-like/", import.meta.url);
/** The held-back set (other servers and domains, never used for tuning): catalog and queries. */
export const MCP_LIKE_HOLDOUT_DIRECTORY = new URL("./data/mcp-like-holdout/", import.meta.url);

/** One MCP-like tool as written to `tools.json`: the server it lives on and what `tools/list` would say. */
export type McpLikeTool = {
  server: string;
  name: string;
  description: string;
  inputSchema: {
    type: "object";
    properties: Record<string, { type: string; description: string }>;
    required: string[];
  };
};

/** A parameter: `[name, JSON type, description]`; a leading `?` on the name makes it optional. */
export type McpLikeParameter = readonly [string, string, string];

/** Sentence openers per verb; the variant is chosen from the tool name, so the output is deterministic. */
const TEMPLATES: Readonly<Record<Verb, readonly ((resource: Resource) => string)[]>> = {
  list: [
    (r) => `List ${r.things}${at(r)}. Returns ${r.detail} for each, one page at a time.`,
    (r) => `Returns the ${r.things}${at(r)}, with ${r.detail}. Supports paging.`,
  ],
  get: [
    (r) => `Get one ${r.thing} by ${describeKey(r)}: ${r.detail}.`,
    (r) => `Fetch the full details of ${article(r.thing)} (${r.detail}).`,
  ],
  search: [
    (r) => `Search ${r.things}${at(r)} with a text query and filters; returns the best matches first.`,
    (r) => `Find ${r.things} matching keywords${at(r)}. Each result has ${r.detail}.`,
  ],
  create: [
    (r) => `Create a new ${r.thing}${at(r)}.`,
    (r) => `Creates ${article(r.thing)}${at(r)} and returns its id.`,
  ],
  update: [
    (r) => `Update an existing ${r.thing}: change ${fieldNames(r)}. Fields left out stay as they are.`,
    (r) => `Edit ${article(r.thing)} (${fieldNames(r)}).`,
  ],
  delete: [
    (r) => `Delete ${article(r.thing)}. This cannot be undone.`,
    (r) => `Permanently remove ${article(r.thing)}${at(r)}.`,
  ],
};

function article(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? "an" : "a"} ${phrase}`;
}

function at(resource: Resource): string {
  return resource.scope ? ` ${resource.scope}` : "";
}

function describeKey(resource: Resource): string {
  return `its ${resource.key[0].replaceAll("_", " ")}`;
}

function fieldNames(resource: Resource): string {
  return resource.fields.map(([name]) => name.replace("?", "").replaceAll("_", " ")).join(", ");
}

/** A JSON Schema object for parameters given as `McpLikeParameter`s (a repeated name is kept once). */
export function schema(parameters: readonly McpLikeParameter[]): McpLikeTool["inputSchema"] {
  const properties: McpLikeTool["inputSchema"]["properties"] = {};
  const required: string[] = [];
  for (const [rawName, type, description] of parameters) {
    const name = rawName.replace("?", "");
    if (name in properties) continue;
    properties[name] = { type, description };
    if (!rawName.startsWith("?")) required.push(name);
  }
  return { type: "object", properties, required };
}

function parametersFor(verb: Verb, resource: Resource): McpLikeParameter[] {
  const scope = resource.scopeParameters;
  switch (verb) {
    case "list":
      return [...scope, ...resource.filters.filter(([name]) => name !== "?query"), ...PAGE];
    case "search":
      return [
        ["query", "string", `Words to look for in ${resource.things}.`],
        ...scope,
        ...resource.filters,
        ...PAGE,
      ];
    case "get":
    case "delete":
      return [...scope, resource.key];
    case "create":
      return [...scope, ...resource.fields];
    case "update":
      return [...scope, resource.key, ...resource.fields.map(optional)];
  }
}

function optional([name, type, description]: McpLikeParameter): McpLikeParameter {
  return [name.startsWith("?") ? name : `?${name}`, type, description];
}

/** Small string hash (sum of code points times position) to pick a template variant deterministically. */
function variant(name: string, count: number): number {
  let sum = 0;
  for (let index = 0; index < name.length; index += 1) sum += name.charCodeAt(index) * (index + 1);
  return sum % count;
}

/** Every tool of the MCP-like catalog, in a fixed order: generated resource tools, then the hand-written ones. */
export function mcpLikeTools(): McpLikeTool[] {
  const tools: McpLikeTool[] = [];
  for (const server of MCP_LIKE_SERVERS) {
    for (const entry of server.resources) {
      for (const verb of entry.verbs) {
        const noun = verb === "list" || verb === "search" ? entry.many : entry.one;
        const name = `${server.prefix}${verb}_${noun}`;
        const templates = TEMPLATES[verb];
        const description = templates[variant(name, templates.length)]!(entry);
        tools.push({ server: server.id, name, description, inputSchema: schema(parametersFor(verb, entry)) });
      }
    }
  }
  for (const [server, name, description, parameters] of MCP_LIKE_EXTRA_TOOLS) {
    tools.push({ server, name, description, inputSchema: schema(parameters) });
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    const key = `${tool.server}:${tool.name}`;
    if (seen.has(key)) throw new Error(`Duplicate MCP-like tool ${key}: rename one in bench/mcp-like-*.ts.`);
    seen.add(key);
  }
  return tools;
}

/** Every tool of the held-back catalog, in the order written in `mcp-like-holdout-tools.ts`. */
export function mcpLikeHoldoutTools(): McpLikeTool[] {
  const tools = HOLDOUT_TOOLS.map(([server, name, description, parameters]) => ({
    server,
    name,
    description,
    inputSchema: schema(parameters),
  }));
  const seen = new Set<string>();
  for (const tool of tools) {
    const key = `${tool.server}:${tool.name}`;
    if (seen.has(key))
      throw new Error(`Duplicate held-back tool ${key}: rename one in bench/mcp-like-holdout-tools.ts.`);
    seen.add(key);
  }
  return tools;
}

/**
 * Writes `bench/data/mcp-like/tools.json` and `bench/data/mcp-like-holdout/tools.json`: after changing the
 * definitions, run `npx tsx bench/mcp-like-catalog.ts` then `npx biome format --write bench/data` (the committed
 * files are in the repository's JSON format).
 */
export function writeMcpLikeCatalog(): number {
  let written = 0;
  for (const [directory, tools] of [
    [MCP_LIKE_DIRECTORY, mcpLikeTools()],
    [MCP_LIKE_HOLDOUT_DIRECTORY, mcpLikeHoldoutTools()],
  ] as const) {
    mkdirSync(directory, { recursive: true });
    writeFileSync(new URL("tools.json", directory), `${JSON.stringify(tools, null, 2)}\n`);
    written += tools.length;
  }
  return written;
}

if (isEntryPoint(import.meta.url)) console.log(`${writeMcpLikeCatalog()} tools written.`);
