import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolDefinition, ToolResult } from "../src/core/catalog/index.js";
import { type CallEnvelope, toCallResult } from "../src/core/controls/index.js";
import { createToolSearch } from "../src/core/tool-search/index.js";
import { DEFAULT_AGENT_INSTRUCTIONS } from "../src/runtime/config/index.js";
import { toToolResult } from "../src/runtime/mcp-client/to-tool-result.js";
import { toResponsesBody } from "../src/runtime/providers/responses-mapping.js";
import { isEntryPoint } from "./entry-point.js";
import { loadSealTools } from "./seal-tools.js";
import { compactNumber, writeChart } from "./svg-chart.js";
import { syntheticTools } from "./synthetic-tools.js";
import { writeResults } from "./write-results.js";

type Surface = "direct" | "tools" | "directory";

type Row = {
  catalog: string;
  tools: number;
  surface: Surface;
  declaredTools: number;
  requestBytes: number;
  systemPromptChars: number;
  /** requestBytes as a share of the direct request's, in percent. */
  shareOfDirect: number;
};

const USER_TURN = "Find the tool that can do this and call it: look up the price of bitcoin.";

/**
 * The first provider request of a run (system prompt, the user's turn, the declared tools), serialised as
 * the Responses API body toolsift sends, for direct schemas and both Tool Search modes.
 */
function firstRequestBytes(
  tools: readonly ToolDefinition[],
  surface: Surface,
): Omit<Row, "catalog" | "tools" | "shareOfDirect"> {
  const search = createToolSearch({
    tools,
    config: surface === "direct" ? false : { mode: surface },
    contextWindowTokens: 200_000,
  });
  try {
    const declared = search.modelTools();
    const directory = search.directory();
    const instructions = directory
      ? `${DEFAULT_AGENT_INSTRUCTIONS}\n\n${directory}`
      : DEFAULT_AGENT_INSTRUCTIONS;
    const body = toResponsesBody({
      model: "gpt-5.4-mini",
      instructions,
      input: [{ type: "message", role: "user", text: USER_TURN }],
      tools: declared.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        parameters: tool.parameters ?? { type: "object", properties: {} },
      })),
    });
    return {
      surface,
      declaredTools: declared.length,
      requestBytes: Buffer.byteLength(JSON.stringify(body)),
      systemPromptChars: instructions.length,
    };
  } finally {
    search.close();
  }
}

/**
 * Provider request bytes and declared tools: direct against `tools` and `directory` modes, side by side; then
 * the bytes of typical search, describe and call answers as the model reads them, compact against a verbose
 * rendering of the same answers (both measured in this run: see `measureResultPayloads`).
 */
export async function run(): Promise<Row[]> {
  const catalogs: Array<{ catalog: string; tools: ToolDefinition[] }> = [
    ...[36, 100, 1_000, 10_000].map((size) => ({
      catalog: `synthetic ${size}`,
      tools: syntheticTools(size),
    })),
    { catalog: "seal-tools", tools: loadSealTools() },
  ];
  const rows: Row[] = [];
  for (const { catalog, tools } of catalogs) {
    const direct = firstRequestBytes(tools, "direct");
    for (const surface of ["direct", "tools", "directory"] as const) {
      const figures = surface === "direct" ? direct : firstRequestBytes(tools, surface);
      rows.push({
        catalog,
        tools: tools.length,
        ...figures,
        shareOfDirect: Number(((100 * figures.requestBytes) / direct.requestBytes).toFixed(2)),
      });
    }
  }
  console.table(rows);
  writeResults("payload", rows);
  const results = await measureResultPayloads(loadSealTools());
  console.log(
    "Model-facing answers (before: 2-space JSON and MCP details repeated in the text; after: now):",
  );
  console.table(results);
  writeResults("payload-results", results);
  const categories = catalogs.map(({ catalog, tools }) =>
    catalog === "seal-tools"
      ? `Seal-Tools (${tools.length.toLocaleString("en-US")})`
      : tools.length.toLocaleString("en-US"),
  );
  writeChart("payload", {
    title: "First provider request: bytes sent",
    subtitle: "direct schemas vs Tool Search (tools and directory modes); lower is better",
    panels: [
      {
        categories,
        series: (["direct", "tools", "directory"] as const).map((surface) => ({
          name: surface,
          values: catalogs.map(
            ({ catalog }) =>
              rows.find((row) => row.catalog === catalog && row.surface === surface)?.requestBytes,
          ),
        })),
        yLabel: "request bytes (log scale)",
        xLabel: "tools in the catalog (synthetic, then Seal-Tools)",
        log: true,
        format: (bytes) => `${compactNumber(bytes)}B`,
      },
    ],
  });
  return rows;
}

/** One model-facing result: its compact text, and the same answer in the verbose rendering (the baseline). */
type ResultPayloadRow = {
  result: string;
  /** Bytes (UTF-8) of the verbose rendering: 2-space JSON, MCP details repeated in the text. */
  beforeBytes: number;
  /** Bytes (UTF-8) of the text toolsift writes: compact JSON, each payload once. */
  afterBytes: number;
  /** afterBytes as a share of beforeBytes, in percent. */
  shareOfBefore: number;
};

/** Size of the file both read tools return (10,801 bytes, a typical source file). */
const FILE_BYTES = 10_801;

/**
 * Bytes of a typical `tool_search` (8 hits), `tool_describe` and `tool_call` answer as the model reads them,
 * compact and verbose, measured in the same run: "before" re-renders the very same answer verbosely
 * (2-space-indented JSON; for MCP, `structuredContent` serialised again into the text), so both figures come
 * from one catalog, one query and one file. The native and the MCP tool both read a real 10,801-byte file;
 * the MCP tool answers like the reference filesystem server (`content` text plus `structuredContent`),
 * mapped by toolsift's MCP result mapping.
 */
async function measureResultPayloads(catalog: readonly ToolDefinition[]): Promise<ResultPayloadRow[]> {
  const directory = mkdtempSync(join(tmpdir(), "toolsift-payload-"));
  const file = join(directory, "notes.md");
  writeFileSync(file, fileText(FILE_BYTES));
  const readNative: ToolDefinition = {
    name: "read_notes",
    description: "Read a text file from the workspace and return its content.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    execute: async (args): Promise<ToolResult> => {
      const text = readFileSync(String((args as { path: string }).path), "utf8");
      return { content: [{ type: "text", text }], details: { path: file, bytes: text.length } };
    },
  };
  const readMcp: ToolDefinition = {
    name: "read_text_file",
    description: "Read the complete contents of a file as text.",
    origin: { kind: "mcp", owner: "filesystem" },
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    execute: async (args): Promise<ToolResult> => {
      const text = readFileSync(String((args as { path: string }).path), "utf8");
      return toToolResult({ content: [{ type: "text", text }], structuredContent: { content: text } });
    },
  };
  const search = createToolSearch({ tools: [...catalog, readNative, readMcp], config: { mode: "tools" } });
  try {
    const controls = new Map(search.modelTools().map((tool) => [tool.name, tool]));
    const run = async (name: string, args: unknown) => {
      const control = controls.get(name);
      if (!control) throw new Error(`${name} is not declared`);
      return control.execute(args, {});
    };
    const searched = await run("tool_search", { query: "search the web for news", limit: 8 });
    const describeId = (searched.details as Array<{ id: string }>)[0]?.id ?? "native:core:read_notes";
    const described = await run("tool_describe", { id: describeId });
    const nativeCall = await run("tool_call", { id: "native:core:read_notes", args: { path: file } });
    const mcpCall = await run("tool_call", { id: "mcp:filesystem:read_text_file", args: { path: file } });
    // The verbose rendering: an MCP call's text also holds its details (the structuredContent) as wrapped JSON.
    const mcpBefore = toCallResult(mcpCall.details as CallEnvelope, { networkSourced: true });
    return [
      row(
        `tool_search (${(searched.details as unknown[]).length} hits)`,
        prettyOf(searched),
        textOf(searched),
      ),
      row("tool_describe", prettyOf(described), textOf(described)),
      row("tool_call, native tool reading a 10.8 KB file", prettyOf(nativeCall), textOf(nativeCall)),
      row("tool_call, MCP tool reading a 10.8 KB file", prettyOf(mcpBefore), textOf(mcpCall)),
    ];
  } finally {
    search.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

function row(result: string, before: string, after: string): ResultPayloadRow {
  const beforeBytes = Buffer.byteLength(before);
  const afterBytes = Buffer.byteLength(after);
  return {
    result,
    beforeBytes,
    afterBytes,
    shareOfBefore: Number(((100 * afterBytes) / beforeBytes).toFixed(2)),
  };
}

function textOf(result: ToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** The same answer as the 2-space-indented JSON the controls wrote before. */
function prettyOf(result: ToolResult): string {
  return JSON.stringify(JSON.parse(textOf(result)), null, 2);
}

/** Markdown-like prose of exactly `bytes` ASCII bytes, with line breaks and quotes to escape in JSON. */
function fileText(bytes: number): string {
  const line = '- Meeting notes: the "search" team shipped v2; latency p95 fell from 180 ms to 95 ms.\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

if (isEntryPoint(import.meta.url)) await run();
