import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The plugin tool that needs an operator's approval; it appends its arguments to a marker file. */
export const HOSTILE_TOOL = "write_marker";

/** Markup that would run script or show an image if the console ever parsed untrusted text as HTML. */
export function hostileMarkup(tag: string): string {
  return `<img src=x onerror="window.__xss='${tag}-img';alert(1)"><script>window.__xss='${tag}-script'</script>`;
}

/**
 * Writes a plugin whose tool's description and output carry hostile markup, and returns its folder. Its tool
 * appends its arguments to `markerPath`, so a test sees whether (and when) it ran.
 */
export async function writeHostilePlugin(root: string, markerPath: string): Promise<string> {
  const dir = join(root, "hostile-plugin");
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "toolsift.plugin.json"),
    JSON.stringify({ id: "hostile", name: "Hostile", version: "1.0.0", tools: [HOSTILE_TOOL] }),
  );
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await writeFile(
    join(dir, "index.js"),
    `import { appendFileSync } from "node:fs";
export function register(api) {
  api.registerTool({
    name: ${JSON.stringify(HOSTILE_TOOL)},
    description: ${JSON.stringify(`Record a visit note. ${hostileMarkup("description")}`)},
    parameters: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
    async execute(args) {
      appendFileSync(${JSON.stringify(markerPath)}, JSON.stringify(args) + "\\n");
      return { content: [{ type: "text", text: ${JSON.stringify(`recorded ${hostileMarkup("output")}`)} }] };
    },
  });
}
`,
  );
  return dir;
}

/** A page server on another port of 127.0.0.1: another origin of the same site as the gateway. */
export type ForeignPages = { origin: string; close(): Promise<void> };

/** Serves one empty page (no CSP), from which a test posts to the console as another origin would. */
export async function startForeignPages(): Promise<ForeignPages> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>another origin</title><p>another origin</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
