import { readFile } from "node:fs/promises";

const JAVASCRIPT = "text/javascript; charset=utf-8";

/** The files of the console's pages, served under `/console/assets/`, with their media types. */
const ASSETS: Readonly<Record<string, string>> = {
  "console.js": JAVASCRIPT,
  "api.js": JAVASCRIPT,
  "dom.js": JAVASCRIPT,
  "login-page.js": JAVASCRIPT,
  "sessions-page.js": JAVASCRIPT,
  "timeline-page.js": JAVASCRIPT,
  "approvals-page.js": JAVASCRIPT,
  "tools-page.js": JAVASCRIPT,
  "tool-search-box.js": JAVASCRIPT,
  "health-page.js": JAVASCRIPT,
  "logs-page.js": JAVASCRIPT,
  "chat-page.js": JAVASCRIPT,
  "event-views.js": JAVASCRIPT,
  "live.js": JAVASCRIPT,
  "console.css": "text/css; charset=utf-8",
};

/** The console's script files (ES modules that import each other by these names). */
export const CONSOLE_SCRIPTS: readonly string[] = Object.keys(ASSETS).filter((name) => name.endsWith(".js"));

/** The one page every console path answers with; its script draws the page the path names. */
const SHELL = "console.html";

/** A file to answer with: its bytes and media type. */
export type ConsoleAsset = { body: string; type: string };

/**
 * Reads the console's files from `assets/` beside this module (copied to `dist/` by the build), once, and
 * keeps them in memory. Only the names listed here are served: a path never reaches the file system.
 */
export function createAssetReader(): {
  asset(name: string): Promise<ConsoleAsset | undefined>;
  shell(): Promise<ConsoleAsset>;
} {
  const cache = new Map<string, Promise<string>>();
  const read = (name: string): Promise<string> => {
    let text = cache.get(name);
    if (text === undefined) {
      text = readFile(new URL(`./assets/${name}`, import.meta.url), "utf8");
      // A failed read (a build that did not copy the assets) is tried again on the next request.
      text.catch(() => cache.delete(name));
      cache.set(name, text);
    }
    return text;
  };
  return {
    asset: async (name) => {
      const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (type === undefined) return undefined;
      return { body: await read(name), type };
    },
    shell: async () => ({ body: await read(SHELL), type: "text/html; charset=utf-8" }),
  };
}
