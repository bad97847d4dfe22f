import type { CatalogEntry } from "../catalog/index.js";

/** The servers of a catalog, numbered in order of first sight; a server is a source and an owner (`mcp:github`). */
export type Servers = {
  /** Per document, its server's number. */
  readonly serverOf: Uint32Array;
  readonly count: number;
};

/** Numbers the servers of `entries` (a plugin and an MCP server with the same owner name are two servers). */
export function numberServers(entries: readonly CatalogEntry[]): Servers {
  const numbers = new Map<string, number>();
  const serverOf = new Uint32Array(entries.length);
  entries.forEach((entry, doc) => {
    const key = `${entry.source}:${entry.owner}`;
    let server = numbers.get(key);
    if (server === undefined) {
      server = numbers.size;
      numbers.set(key, server);
    }
    serverOf[doc] = server;
  });
  return { serverOf, count: numbers.size };
}
