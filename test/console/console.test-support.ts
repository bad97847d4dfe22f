import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CHROMIUM, MARKER_TOOL, writeMarkerPlugin } from "../browser-safety/browser-safety.test-support.js";

export { CHROMIUM, CHROMIUM_ARGS } from "../browser-safety/browser-safety.test-support.js";
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);

/** The plugin tool that needs an operator's approval; it appends its arguments to a marker file. */
export const HOSTILE_TOOL = MARKER_TOOL;

/** Markup that would run script or show an image if the console ever parsed untrusted text as HTML. */
export function hostileMarkup(tag: string): string {
  return `<img src=x onerror="window.__xss='${tag}-img';alert(1)"><script>window.__xss='${tag}-script'</script>`;
}

/**
 * Writes a plugin whose tool's description and output carry hostile markup, and returns its folder. Its tool
 * appends its arguments to `markerPath`, so a test sees whether (and when) it ran.
 */
export function writeHostilePlugin(root: string, markerPath: string): Promise<string> {
  return writeMarkerPlugin(root, markerPath, {
    folder: "hostile-plugin",
    id: "hostile",
    description: `Record a visit note. ${hostileMarkup("description")}`,
    output: `recorded ${hostileMarkup("output")}`,
  });
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
