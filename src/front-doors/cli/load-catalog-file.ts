import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { JsonSchema, ToolDefinition, ToolOrigin, ToolResult } from "../../core/catalog/index.js";
import { CONTROL_NAMES } from "../../core/catalog/index.js";
import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { isObjectRecord } from "../../shared/schema/index.js";
import { cutText } from "../../shared/text/index.js";
import { LONGEST_CATALOG_VALUE_SHOWN, MAX_CATALOG_FILE_BYTES } from "./limits.js";
import { isJsonElementOf, isJsonPath, scanJson } from "./scan-json.js";

/** Owner of MCP tools loaded from a file whose base name yields no usable owner. */
const DEFAULT_MCP_OWNER = "mcp";

const FORMATS =
  "expected a JSON array of tools, JSON lines of tools, an OpenAI tools array or an MCP tools/list result";
const ORIGIN_KINDS: ReadonlySet<string> = new Set(["core", "plugin", "mcp", "client"]);

type JsonObject = Record<string, unknown>;
/** A tool item and the line it starts on, looked up only when a message names it (scanning costs a parser). */
type Item = { value: unknown; line(): number };

/**
 * Parses the text of a catalog file into tool definitions. Accepts a JSON array or JSON lines of
 * `{ name, description, parameters, origin? }`, OpenAI `tools` (chat `{ type: "function", function }` and
 * Responses flat `{ type: "function", name, … }`), and an MCP `tools/list` result (`{ tools }`, also inside a
 * JSON-RPC response); items of these forms may be mixed. MCP tools (`inputSchema`) get origin
 * `{ kind: "mcp", owner: <file base name> }`. Bad input throws a `CONFIG_INVALID` ToolsiftError whose
 * message is `<file>:<line>: <reason>`.
 */
export function parseCatalogFile(text: string, fileName: string): ToolDefinition[] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (body.trim().length === 0) throw invalid(fileName, undefined, `the file is empty; ${FORMATS}`);
  const mcpOwner = ownerFromFileName(fileName);
  return readItems(body, fileName).map((item) => toToolDefinition(item, fileName, mcpOwner));
}

/** Reads and parses a catalog file; unreadable, oversized or invalid files throw `CONFIG_INVALID`. */
export async function loadCatalogFile(path: string): Promise<ToolDefinition[]> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw invalid(path, undefined, "is a directory, not a catalog file");
    if (info.size > MAX_CATALOG_FILE_BYTES) {
      throw invalid(
        path,
        undefined,
        `is ${info.size} bytes; catalog files are limited to ${MAX_CATALOG_FILE_BYTES}`,
      );
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof ToolsiftError) throw error;
    throw invalid(path, undefined, `cannot read the file (${describeFsError(error)})`);
  }
  return parseCatalogFile(text, path);
}

/** Splits the file into tool items with the line each starts on. */
function readItems(text: string, fileName: string): Item[] {
  const document = parseDocument(text);
  if (document.ok) return itemsOfDocument(document.value, text, fileName);

  // Not one JSON document: JSON lines, unless it is a document that breaks (an array, or a pretty object).
  const lines = text.split("\n");
  const firstIndex = lines.findIndex((line) => line.trim().length > 0);
  const first = lines[firstIndex]?.trim() ?? "";
  if (first.startsWith("[") || parseDocument(first).ok === false) {
    const error = scanJson(text);
    throw invalid(fileName, error?.line, `invalid JSON: ${error?.reason ?? "cannot be parsed"}`);
  }
  const items: Item[] = [];
  lines.forEach((line, index) => {
    if (line.trim().length === 0) return;
    const parsed = parseDocument(line);
    if (!parsed.ok) {
      throw invalid(
        fileName,
        index + 1,
        `invalid JSON line: ${scanJson(line)?.reason ?? "cannot be parsed"}`,
      );
    }
    items.push({ value: parsed.value, line: () => index + 1 });
  });
  return items;
}

function itemsOfDocument(value: unknown, text: string, fileName: string): Item[] {
  if (Array.isArray(value)) return withLines(value, [], text);
  if (!isObjectRecord(value)) throw invalid(fileName, 1, FORMATS);
  if ("tools" in value) return toolsArray(value.tools, ["tools"], text, fileName);
  const result = value.result;
  if ("jsonrpc" in value && isObjectRecord(result) && "tools" in result) {
    return toolsArray(result.tools, ["result", "tools"], text, fileName);
  }
  if ("name" in value || "type" in value || "function" in value)
    return [{ value, line: () => lineOfPath([], text) }];
  throw invalid(fileName, 1, FORMATS);
}

function toolsArray(tools: unknown, path: string[], text: string, fileName: string): Item[] {
  if (!Array.isArray(tools)) throw invalid(fileName, lineOfPath(path, text), '"tools" must be an array');
  return withLines(tools, path, text);
}

/** Pairs each element of the array at `path` with the line it starts on. */
function withLines(values: unknown[], path: readonly string[], text: string): Item[] {
  let lines: number[] | undefined;
  const lineOf = (index: number): number => {
    if (lines === undefined) {
      const found: number[] = [];
      scanJson(text, (valuePath, line) => {
        if (isJsonElementOf(valuePath, path)) found.push(line);
      });
      lines = found;
    }
    return lines[index] ?? 1;
  };
  return values.map((value, index) => ({ value, line: () => lineOf(index) }));
}

function lineOfPath(path: readonly string[], text: string): number {
  let found: number | undefined;
  scanJson(text, (valuePath, line) => {
    if (found === undefined && isJsonPath(valuePath, path)) found = line;
  });
  return found ?? 1;
}

function toToolDefinition(item: Item, fileName: string, mcpOwner: string): ToolDefinition {
  const fail = (reason: string): ToolsiftError => invalid(fileName, item.line(), reason);
  const { value } = item;
  if (!isObjectRecord(value)) throw fail(`expected a tool object, found ${describeJson(value)}`);

  let fields: JsonObject = value;
  let schemaKey = "parameters";
  if ("type" in value) {
    if (value.type !== "function") {
      throw fail(`unsupported tool type ${describeJson(value.type)}: only function tools can be searched`);
    }
    if ("function" in value) {
      if (!isObjectRecord(value.function)) throw fail('"function" must be an object');
      fields = value.function;
    }
  } else if ("inputSchema" in value && !("parameters" in value)) {
    schemaKey = "inputSchema";
  }
  const origin: ToolOrigin | undefined =
    value.origin !== undefined && value.origin !== null
      ? readOrigin(value.origin, fail)
      : schemaKey === "inputSchema"
        ? { kind: "mcp", owner: mcpOwner }
        : undefined;

  const name = fields.name;
  if (typeof name !== "string" || name.trim().length === 0) {
    throw fail(
      `a tool needs a non-empty string "name"${name === undefined ? "" : `, found ${describeJson(name)}`}`,
    );
  }
  const tool = `tool ${JSON.stringify(name)}`;
  if (CONTROL_NAMES.has(name)) throw fail(`${tool}: the name is reserved for a Tool Search control`);
  const description = optionalString(fields.description, `${tool}: "description" must be a string`, fail);
  const label = optionalString(
    schemaKey === "inputSchema" ? fields.title : fields.label,
    `${tool}: "${schemaKey === "inputSchema" ? "title" : "label"}" must be a string`,
    fail,
  );
  const parameters = optionalSchema(
    fields[schemaKey],
    `${tool}: "${schemaKey}" must be a JSON Schema object`,
    fail,
  );
  const outputSchema = optionalSchema(
    fields.outputSchema,
    `${tool}: "outputSchema" must be a JSON Schema object`,
    fail,
  );

  return {
    name,
    ...(label === undefined ? {} : { label }),
    ...(description === undefined ? {} : { description }),
    ...(parameters === undefined ? {} : { parameters }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(origin === undefined ? {} : { origin }),
    execute: catalogOnly(name, fileName),
  };
}

function readOrigin(value: unknown, fail: (reason: string) => ToolsiftError): ToolOrigin {
  if (!isObjectRecord(value))
    throw fail(`"origin" must be an object like { "kind": "plugin", "owner": "weather" }`);
  const { kind, owner } = value;
  if (typeof kind !== "string" || !ORIGIN_KINDS.has(kind)) {
    throw fail(`"origin.kind" must be "core", "plugin", "mcp" or "client", found ${describeJson(kind)}`);
  }
  if (owner !== undefined && (typeof owner !== "string" || owner.length === 0)) {
    throw fail(`"origin.owner" must be a non-empty string, found ${describeJson(owner)}`);
  }
  return { kind: kind as ToolOrigin["kind"], ...(owner === undefined ? {} : { owner }) };
}

function optionalString(
  value: unknown,
  message: string,
  fail: (reason: string) => ToolsiftError,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw fail(message);
  return value;
}

function optionalSchema(
  value: unknown,
  message: string,
  fail: (reason: string) => ToolsiftError,
): JsonSchema | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean" || isObjectRecord(value)) return value;
  throw fail(message);
}

/** `execute` of a loaded tool: the file describes tools, it cannot run them. */
function catalogOnly(name: string, fileName: string): ToolDefinition["execute"] {
  return async (): Promise<ToolResult> => ({
    content: [
      {
        type: "text",
        text: `${name} is only a catalog entry loaded from ${fileName}; it has no implementation to run.`,
      },
    ],
    isError: true,
  });
}

/** MCP owner from the file's base name: `calendar-tools.json` gives `calendar-tools`. */
function ownerFromFileName(fileName: string): string {
  const base = basename(fileName);
  const stem = base.slice(0, base.length - extname(base).length);
  const owner = stem.replace(/[^A-Za-z0-9_.-]+/gu, "_").replace(/^[_.]+|[_.]+$/gu, "");
  return owner.length > 0 ? owner : DEFAULT_MCP_OWNER;
}

function parseDocument(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return cutText(JSON.stringify(value) ?? String(value), LONGEST_CATALOG_VALUE_SHOWN);
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return messageOf(error);
}

function invalid(fileName: string, line: number | undefined, reason: string): ToolsiftError {
  return new ToolsiftError("CONFIG_INVALID", `${fileName}${line === undefined ? "" : `:${line}`}: ${reason}`);
}
