import { describe, expect, it } from "vitest";
import { createCatalogSnapshot } from "../catalog/index.js";
import { entriesOf, entryOf, namesOf, recordingSchema } from "./search.test-support.js";
import { createSearchIndex } from "./search-index.js";

function nativeProxyCatalog(size: number, log: string[]) {
  return entriesOf(
    ...Array.from({ length: size }, (_, index) => ({
      name: `tool_${index}`,
      description: `Tool number ${index} does task ${index}`,
      parameters: recordingSchema(log, {
        type: "object",
        properties: { [`field_${index}`]: { type: "string", description: `value ${index}` } },
      }),
    })),
  );
}

describe("search never touches a schema it does not need", () => {
  it("answers 64 exact-name searches with limit 1 over 512 native tools without reading any schema", () => {
    const log: string[] = [];
    const index = createSearchIndex(nativeProxyCatalog(512, log));
    for (let query = 0; query < 64; query += 1) {
      expect(namesOf(index.search(`tool_${query * 8}`, 1))).toEqual([`tool_${query * 8}`]);
    }
    expect(log).toEqual([]);
    // The same holds for an index reached through a snapshot (whose fingerprint reads trusted schemas once).
    const snapshot = createCatalogSnapshot(nativeProxyCatalog(512, log));
    log.length = 0;
    const snapshotIndex = createSearchIndex(snapshot.entries);
    for (let query = 0; query < 64; query += 1) snapshotIndex.search(`native:test:tool_${query}`, 1);
    expect(log).toEqual([]);
  });

  it("builds postings (reading native schemas, bounded) on the first query that needs them", () => {
    const log: string[] = [];
    const index = createSearchIndex(nativeProxyCatalog(8, log));
    expect(namesOf(index.search("value 3", 1))).toEqual(["tool_3"]);
    expect(log.length).toBeGreaterThan(0);
    const reads = log.length;
    index.search("value 4", 1);
    expect(log.length).toBe(reads);
  });

  it("never walks MCP or client schemas, even after searches", () => {
    const log: string[] = [];
    const entries = [
      entryOf({
        name: "create_event",
        description: "Create a calendar event",
        parameters: recordingSchema(log),
        origin: { kind: "mcp", owner: "calendar" },
      }),
      entryOf({
        name: "pick_file",
        description: "Pick a file",
        parameters: recordingSchema(log),
        origin: { kind: "client" },
      }),
      entryOf({ name: "native_tool", description: "Calendar helper", parameters: { type: "object" } }),
    ];
    const snapshot = createCatalogSnapshot(entries);
    const index = createSearchIndex(snapshot.entries);
    for (const query of [
      "calendar event",
      "pick file",
      "create_event",
      "mcp:calendar:create_event",
      "calendar",
    ]) {
      expect(index.search(query, 5).length).toBeGreaterThan(0);
    }
    expect(log).toEqual([]);
  });

  it("survives hostile native schemas without throwing", () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error("get");
        },
        ownKeys() {
          throw new Error("keys");
        },
        getPrototypeOf() {
          throw new Error("proto");
        },
      },
    );
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const cyclic: Record<string, unknown> = { type: "object", description: "cyclic schema" };
    cyclic.properties = { self: cyclic, list: { items: cyclic } };
    const index = createSearchIndex(
      entriesOf(
        { name: "a", description: "alpha", parameters: throwing as Record<string, unknown> },
        { name: "b", description: "beta", parameters: revoked as Record<string, unknown> },
        { name: "c", description: "gamma", parameters: cyclic },
        { name: "d", description: "delta", parameters: true },
      ),
    );
    expect(namesOf(index.search("alpha beta gamma delta", 10)).sort()).toEqual(["a", "b", "c", "d"]);
    expect(namesOf(index.search("cyclic", 10))).toEqual(["c"]);
  });
});
