import { constants } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { installCommandFor, missingPackages } from "../../runtime/optional-packages/index.js";
import { OPENAI_SDK } from "../../runtime/providers/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import type { CliIo } from "./types.js";

/** The package's `examples/` folder (shipped in the package: `files` in package.json). */
const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));

/** The starter config `init` writes: the example config with comments for a project instead of the clone. */
const STARTER_CONFIG = `// toolsift config, written by toolsift init (JSON5: comments and trailing commas are fine).
// Every key, its default and allowed values: docs/config.md in the toolsift package.
//
// Try it without a key, in two terminals:
//   npx toolsift mock-openai                      a scripted model on http://127.0.0.1:18790/v1
//   npx toolsift gateway --config toolsift.json5  the gateway on http://127.0.0.1:18789
// Then ask it something; "target=<tool>" makes the mock model search for that tool and call it:
//   curl -s http://127.0.0.1:18789/v1/responses -H 'content-type: application/json' \\
//     -d '{"input": "Weather in Berlin tomorrow? target=get_forecast"}'
{
  models: {
    providers: {
      // The scripted model of \`toolsift mock-openai\` on its default port.
      mock: { api: "openai-responses", baseUrl: "http://127.0.0.1:18790/v1" },
      // A real model: set OPENAI_API_KEY and change agents.defaults.model to "openai/gpt-5.4-mini"
      // (the built-in "openai" provider reads the key from there; no entry needed here).
    },
  },
  agents: { defaults: { model: "mock/toolsift-mock" } },
  // Relative to this file: every folder under plugins/ holding a toolsift.plugin.json.
  plugins: { load: { paths: ["./plugins"] } },
  // Tool Search is on by default; { mode: "directory" } also lists every tool in the system prompt.
  // tools: { toolSearch: { mode: "tools" } },
}
`;

/** One file `init` writes: where (relative to the folder), and its text or the example it copies. */
type StarterFile = { path: string; text?: string; copyOf?: string };

const STARTER_FILES: readonly StarterFile[] = [
  { path: "toolsift.json5", text: STARTER_CONFIG },
  { path: "plugins/weather/toolsift.plugin.json", copyOf: "plugins/weather/toolsift.plugin.json" },
  { path: "plugins/weather/index.js", copyOf: "plugins/weather/index.js" },
  { path: "catalog.json", copyOf: "catalog.json" },
];

/**
 * What `toolsift init` does: writes the starter files into `dir`, or nothing at all when any of them exists
 * (a ToolsiftError naming every one, so the command exits 1). Each file is created exclusively, so a file
 * that appears meanwhile is not overwritten either.
 */
export async function runInit(options: { dir: string }, io: CliIo): Promise<void> {
  const dir = resolve(options.dir);
  const existing: string[] = [];
  for (const file of STARTER_FILES) {
    if (await exists(join(dir, file.path))) existing.push(join(dir, file.path));
  }
  if (existing.length > 0) {
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `toolsift init writes nothing: ${existing.length === 1 ? "this file exists" : "these files exist"}: ${existing.join(", ")}. Move or delete ${existing.length === 1 ? "it" : "them"}, or run toolsift init --dir <empty folder>.`,
    );
  }
  for (const file of STARTER_FILES) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    if (file.copyOf !== undefined)
      await copyFile(join(EXAMPLES, file.copyOf), target, constants.COPYFILE_EXCL);
    else await writeFile(target, file.text ?? "", { flag: "wx" });
    io.stdout(`wrote ${target}\n`);
  }
  io.stdout(
    `\nNext, in ${dir}:\n  npx toolsift search "weather forecast" --catalog catalog.json\n  npx toolsift mock-openai\n${gatewaySteps(dir)}`,
  );
}

/**
 * The starter's last step, `npx toolsift gateway`; when the `openai` client its provider speaks through is
 * not installed (an optional peer dependency), preceded by the command that installs it, or (for a toolsift
 * that npx fetched) replaced by the `npx -p` command that brings it along.
 */
function gatewaySteps(dir: string): string {
  const args = ["gateway", "--config", "toolsift.json5"];
  const missing = missingPackages([OPENAI_SDK]);
  if (missing.length === 0) return `  npx toolsift ${args.join(" ")}\n`;
  const install = installCommandFor(missing, { cwd: dir, args });
  if (install.startsWith("npx ")) return `  ${install}\n`;
  return `  ${install}   (the gateway's model client)\n  npx toolsift ${args.join(" ")}\n`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== "ENOENT";
  }
}
