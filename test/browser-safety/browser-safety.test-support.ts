import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockOpenAI } from "../../src/dev/mock-openai/index.js";
import { type CliProcess, childEnv, spawnCli } from "../operator-safety/operator-safety.test-support.js";

/** The plugin tool whose only effect is a marker file: if the file exists, a run executed it. */
export const MARKER_TOOL = "write_marker";

/** A user text that makes the mock model call the marker tool (`target=` is the mock's script). */
export const MARKER_PROMPT = `Please record this visit. target=${MARKER_TOOL}`;

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium";
/** Headless, no sandbox (root in CI), nothing fetched from outside. */
export const CHROMIUM_ARGS: string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What a marker plugin's tool says of itself and answers (the console's hostile variant changes both). */
export type MarkerPluginText = { folder: string; id: string; description: string; output: string };

const PLAIN_MARKER: MarkerPluginText = {
  folder: "marker-plugin",
  id: "marker",
  description: "Record a visit note in the marker file.",
  output: "recorded",
};

/** Writes the marker plugin under `root` and returns its folder; its tool appends a line to `markerPath`. */
export async function writeMarkerPlugin(
  root: string,
  markerPath: string,
  text: MarkerPluginText = PLAIN_MARKER,
): Promise<string> {
  const dir = join(root, text.folder);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "toolsift.plugin.json"),
    JSON.stringify({ id: text.id, name: text.id, version: "1.0.0", tools: [MARKER_TOOL] }),
  );
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await writeFile(
    join(dir, "index.js"),
    `import { appendFileSync } from "node:fs";
export function register(api) {
  api.registerTool({
    name: ${JSON.stringify(MARKER_TOOL)},
    description: ${JSON.stringify(text.description)},
    parameters: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
    async execute(args) {
      appendFileSync(${JSON.stringify(markerPath)}, JSON.stringify(args) + "\\n");
      return { content: [{ type: "text", text: ${JSON.stringify(text.output)} }] };
    },
  });
}
`,
  );
  return dir;
}

/** The lines the marker tool wrote, or none when it never ran. */
export async function markerLines(markerPath: string): Promise<string[]> {
  if (!existsSync(markerPath)) return [];
  return (await readFile(markerPath, "utf8")).split("\n").filter(Boolean);
}

/** A real `toolsift gateway --port 0` (built CLI) over the mock provider and the marker plugin. */
export type BrowserSafetyGateway = { cli: CliProcess; url: string; port: number };

/** Writes the config (mock provider, marker plugin, `gateway` section) and starts the built CLI's gateway. */
export async function startMarkerGateway(options: {
  root: string;
  mock: MockOpenAI;
  markerPath: string;
  gateway?: Record<string, unknown>;
}): Promise<BrowserSafetyGateway> {
  const plugin = await writeMarkerPlugin(options.root, options.markerPath);
  const configPath = join(options.root, "toolsift.json");
  await writeFile(
    configPath,
    JSON.stringify({
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: options.mock.baseUrl, apiKey: "mock-key" } },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [plugin] } },
      ...(options.gateway === undefined ? {} : { gateway: options.gateway }),
    }),
  );
  const env = childEnv({ TOOLSIFT_HOME: options.root, TOOLSIFT_STATE_DIR: join(options.root, "state") });
  const cli = spawnCli(["gateway", "--port", "0", "--config", configPath], env);
  const url = await cli.listening();
  return { cli, url, port: Number(new URL(url).port) };
}
