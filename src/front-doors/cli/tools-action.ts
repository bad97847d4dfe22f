import type { ToolsiftConfig } from "../../runtime/config/index.js";
import type { EffectiveSurface } from "../../runtime/runner/index.js";
import { assembleRuntime } from "./assemble-runtime.js";
import type { CliIo } from "./types.js";

/** What `toolsift tools` does: prints the effective surface of an agent (text, or `--json`). */
export async function showTools(
  options: { agent: string; json?: boolean; config?: string },
  io: CliIo,
): Promise<void> {
  const runtime = await assembleRuntime({
    ...(options.config ? { configPath: options.config } : {}),
    log: (line) => io.stderr(`${line}\n`),
    // Listing tools keeps no state: a fleet's database is not touched.
    localStateOnly: true,
  });
  try {
    const surface = await runtime.runner.effectiveSurface(options.agent);
    const pins = pinnedTools(surface, runtime.loaded.config);
    if (options.json) {
      io.stdout(`${JSON.stringify({ ...surface, pinned: pins.pinned }, null, 2)}\n`);
      return;
    }
    const mode = surface.toolSearch.enabled ? `on, ${surface.toolSearch.mode} mode` : "off";
    const lines = [
      `agent: ${surface.agentId}`,
      surface.codeMode?.enabled
        ? "code mode: on (exec and wait replace Tool Search; catalog tools are reached inside a cell)"
        : `tool search: ${mode}`,
      `declared to the model (${surface.declaredTools.length}): ${surface.declaredTools.join(", ") || "none"}`,
      ...(pins.configured
        ? [
            `pinned (alwaysVisible, ${pins.pinned.length}): ${pins.pinned.map((pin) => `${pin.declaredAs} (${pin.id})`).join(", ") || "none"}`,
          ]
        : []),
      ...pins.notVisible.map((name) =>
        surface.codeMode?.enabled
          ? `pinned but not declared: ${name} (Code Mode declares no pins; a cell finds the tool with tools.search)`
          : `pinned but not visible: ${name} (no admitted tool by that name or id whose name is unique, or an MCP tool whose schema could not be pinned; see the log)`,
      ),
      `admitted tools (${surface.tools.length}):`,
      ...surface.tools.map((tool) => `  ${tool.visibility.padEnd(11)} ${tool.id}`),
      ...directoryLines(surface),
    ];
    io.stdout(`${lines.join("\n")}\n`);
  } finally {
    await runtime.close();
  }
}

/** The prompt directory as the model gets it, indented, or why there is none. */
function directoryLines(surface: EffectiveSurface): string[] {
  if (surface.codeMode?.enabled)
    return ["directory: none (Code Mode: exec's description carries the catalog's quick index)"];
  if (surface.directory === undefined || surface.directory === "")
    return ["directory: none (Tool Search is off, so every tool is declared)"];
  const lines = surface.directory.split("\n");
  return [
    `directory (${surface.directory.length} chars, in the system prompt):`,
    ...lines.map((line) => `  ${line}`),
  ];
}

/**
 * What the operator pinned (`tools.toolSearch.alwaysVisible`, `mcp.servers.<id>.alwaysVisible`) and how
 * each pin ended up: the admitted tools it keeps declared (native by name, MCP as `<server>__<tool>`), and
 * the configured names that keep nothing visible.
 */
function pinnedTools(
  surface: EffectiveSurface,
  config: ToolsiftConfig,
): { configured: boolean; pinned: Array<{ id: string; declaredAs: string }>; notVisible: string[] } {
  const toolSearch = config.tools?.toolSearch;
  const nativePins =
    typeof toolSearch === "object" &&
    toolSearch !== null &&
    Array.isArray((toolSearch as { alwaysVisible?: unknown }).alwaysVisible)
      ? ((toolSearch as { alwaysVisible: unknown[] }).alwaysVisible.filter(
          (pin) => typeof pin === "string",
        ) as string[])
      : [];
  const mcpPins = Object.entries(config.mcp?.servers ?? {}).flatMap(([server, settings]) =>
    (settings.alwaysVisible ?? []).map((tool) => ({ server, tool })),
  );
  const declared = new Set(surface.declaredTools);
  const pinned: Array<{ id: string; declaredAs: string }> = [];
  const notVisible: string[] = [];
  for (const pin of nativePins) {
    const tool = surface.tools.find(
      (candidate) => candidate.source === "native" && (candidate.name === pin || candidate.id === pin),
    );
    if (tool && surface.toolSearch.enabled && declared.has(tool.name))
      pinned.push({ id: tool.id, declaredAs: tool.name });
    else notVisible.push(pin);
  }
  for (const pin of mcpPins) {
    const tool = surface.tools.find(
      (candidate) =>
        candidate.source === "mcp" &&
        candidate.name === pin.tool &&
        declared.has(`${candidate.owner}__${candidate.name}`),
    );
    if (tool) pinned.push({ id: tool.id, declaredAs: `${tool.owner}__${tool.name}` });
    else notVisible.push(`${pin.server}.${pin.tool}`);
  }
  return { configured: nativePins.length + mcpPins.length > 0, pinned, notVisible };
}
