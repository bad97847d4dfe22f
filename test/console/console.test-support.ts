import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  MARKER_TOOL,
  writeMarkerPlugin,
} from "../browser-safety/browser-safety.test-support.js";

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

/** What the pages of watched contexts did: each URL requested, each dialog (dismissed), each console error. */
export type PageWatch = { requested: string[]; dialogs: string[]; consoleErrors: string[] };

/** An empty watch, for `watchedContext`. */
export function newPageWatch(): PageWatch {
  return { requested: [], dialogs: [], consoleErrors: [] };
}

/** Debian's Chromium, as every console test launches it. */
export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM_AVAILABLE)
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: false, args: CHROMIUM_ARGS });
}

/**
 * A browser context whose pages are watched: the URLs they request, the dialogs they open (dismissed) and the
 * errors they log (the browser's own favicon request, which the gateway does not serve, left out).
 */
export async function watchedContext(
  browser: Browser,
  watch: PageWatch,
  viewport: { width: number; height: number } = { width: 1200, height: 800 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  context.on("request", (request) => watch.requested.push(request.url()));
  context.on("page", (opened) => {
    opened.on("dialog", (dialog) => {
      watch.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    opened.on("console", (message) => {
      if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico"))
        watch.consoleErrors.push(`${message.text()} at ${message.location().url}`);
    });
  });
  return context;
}

/** Signs in on the console's login page with a key's token (Enter submits) and waits for the sessions page. */
export async function signInAt(page: Page, gatewayUrl: string, token: string): Promise<void> {
  await page.goto(`${gatewayUrl}/console/login`);
  await page.locator("#token").fill(token);
  await page.keyboard.press("Enter");
  await page.waitForURL(`${gatewayUrl}/console/sessions`);
}

/** Where a console test writes its screenshots: `TOOLSIFT_CONSOLE_SCREENSHOTS`, else a folder under `root`. */
export async function screenshotFolder(root: string): Promise<string> {
  const folder = process.env.TOOLSIFT_CONSOLE_SCREENSHOTS ?? join(root, "screenshots");
  await mkdir(folder, { recursive: true });
  return folder;
}

/** True when this machine can run the browser tests (CI always tries, and fails without Chromium). */
export function browserTestsRun(what: string): boolean {
  if (CHROMIUM_AVAILABLE || process.env.CI) return true;
  console.warn(`skipping the ${what} browser test: ${CHROMIUM} is missing (apt-get install chromium)`);
  return false;
}
