import type { ToolDefinition } from "../src/catalog/index.js";
import { DEFAULT_AGENT_INSTRUCTIONS } from "../src/config/index.js";
import { toResponsesBody } from "../src/providers/responses-mapping.js";
import { createToolSearch } from "../src/tool-search/index.js";
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

/** Provider request bytes and declared tools: direct against `tools` and `directory` modes, side by side. */
export function run(): Row[] {
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

if (isEntryPoint(import.meta.url)) run();
