import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createHostToolSearch, createToolSearch } from "./create-tool-search.js";
import { requireToolSearchSettings } from "./read-tool-search-settings.js";
import { createToolSearchCaches, libraryToolSearchCaches } from "./tool-search-caches.js";

const tools: ToolDefinition[] = ["send_invoice", "list_orders", "get_weather"].map((name) => ({
  name,
  description: `The ${name.replace("_", " ")} tool.`,
  parameters: { type: "object", properties: { id: { type: "string" } } },
  execute: async () => ({ content: [{ type: "text", text: name }] }),
}));
const toolsMode = requireToolSearchSettings({ enabled: true, mode: "tools" });

describe("Tool Search caches", () => {
  it("runs handed the same caches share one catalog; runs with other caches build their own", () => {
    const caches = createToolSearchCaches();
    const other = createToolSearchCaches();
    const open = (held: typeof caches) => {
      const search = createHostToolSearch({ tools, settings: toolsMode, caches: held });
      const directory = search.directory();
      search.close();
      return directory;
    };
    const first = open(caches);
    expect(open(caches)).toBe(first);
    expect(caches.catalogs.size).toBe(1);
    expect(other.catalogs.size).toBe(0);
    expect(open(other)).toBe(first);
    expect(other.catalogs.size).toBe(1);
  });

  it("keeps no catalog with catalogCacheSize 0, and runs still answer the same", () => {
    const caches = createToolSearchCaches({ catalogCacheSize: 0 });
    const search = createHostToolSearch({ tools, settings: toolsMode, caches });
    const found = search.search("invoice").map((candidate) => candidate.id);
    search.close();
    expect(caches.catalogs.size).toBe(0);
    const library = createToolSearch({ tools, config: { enabled: true, mode: "tools" } });
    expect(library.search("invoice").map((candidate) => candidate.id)).toEqual(found);
    library.close();
  });

  it("createToolSearch uses the library's own caches", () => {
    const library = libraryToolSearchCaches();
    const search = createToolSearch({ tools, config: { enabled: true, mode: "tools" } });
    search.close();
    expect(library.catalogs.get(tools)).toBe(library.catalogs.get([...tools]));
    expect(library.catalogs.size).toBeGreaterThan(0);
  });
});
