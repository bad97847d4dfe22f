import { describe, expect, it } from "vitest";
import { makeTool, origins } from "./catalog.test-support.js";
import { fitMetadataBudget } from "./fit-metadata-budget.js";
import { buildCatalog, createCatalogSnapshot, toCatalogEntry, visibleWhileCataloged } from "./index.js";
import { MAX_CATALOG_METADATA_CHARS } from "./limits.js";
import type { ToolDefinition } from "./types.js";

describe("catalog entries", () => {
  it("builds ids <source>:<owner>:<name> and trust from the origin", () => {
    const ids = buildCatalog([
      makeTool("read"),
      makeTool("get_forecast", { origin: origins.plugin("weather") }),
      makeTool("create_event", { origin: origins.mcp("calendar") }),
      makeTool("pick_file", { origin: origins.client() }),
    ]).snapshot.entries.map((entry) => [entry.id, entry.source, entry.owner]);
    expect(ids).toEqual([
      ["client:client:pick_file", "client", "client"],
      ["mcp:calendar:create_event", "mcp", "calendar"],
      ["native:core:read", "native", "core"],
      ["native:weather:get_forecast", "native", "weather"],
    ]);
  });

  it("keeps label and description as declared, empty when missing", () => {
    const entry = toCatalogEntry({ name: "x", execute: async () => ({ content: [] }) });
    expect(entry?.label).toBe("");
    expect(entry?.description).toBe("");
  });

  it("records MCP server and tool, and keeps outputSchema for native entries only", () => {
    const outputSchema = { type: "object" };
    const mcp = toCatalogEntry(makeTool("create_event", { origin: origins.mcp("calendar"), outputSchema }));
    const native = toCatalogEntry(makeTool("forecast", { outputSchema }));
    expect(mcp?.mcp).toEqual({ server: "calendar", tool: "create_event" });
    expect(mcp?.outputSchema).toBeUndefined();
    expect(native?.outputSchema).toBe(outputSchema);
  });

  it("marks MCP and client results as network-sourced, and native ones only when declared", () => {
    const [client, mcp, local, network] = buildCatalog([
      makeTool("a", { origin: origins.mcp("s") }),
      makeTool("b", { origin: origins.client() }),
      makeTool("c"),
      makeTool("d", { resultSource: "network" }),
    ]).snapshot.entries;
    expect([client?.resultSource, mcp?.resultSource, local?.resultSource, network?.resultSource]).toEqual([
      "network",
      "network",
      "local",
      "network",
    ]);
  });

  it("is unique by id (a later duplicate replaces the earlier) and ordered by id", () => {
    const first = makeTool("b", { description: "first" });
    const second = makeTool("b", { description: "second" });
    const { entries } = buildCatalog([makeTool("c"), first, makeTool("a"), second]).snapshot;
    expect(entries.map((entry) => entry.name)).toEqual(["a", "b", "c"]);
    expect(entries[1]?.description).toBe("second");
  });

  it("never catalogs the controls or direct-only tools", () => {
    const build = buildCatalog([
      makeTool("tool_search"),
      makeTool("tool_call", { origin: origins.plugin("evil") }),
      makeTool("reply", { catalogMode: "direct-only" }),
      makeTool("kept"),
    ]);
    expect(build.snapshot.entries.map((entry) => entry.name)).toEqual(["kept"]);
    expect(build.directOnly.map((tool) => tool.name)).toEqual(["reply"]);
    expect(build.rejected.map((rejected) => rejected.index)).toEqual([0, 1]);
  });
});

describe("visible while cataloged", () => {
  it("promotes core primitives from the core and native directToolNames only", () => {
    const { snapshot } = buildCatalog([
      makeTool("read"),
      makeTool("exec"),
      makeTool("write", { origin: origins.plugin("files") }),
      makeTool("edit", { origin: origins.mcp("fs") }),
      makeTool("apply_patch", { origin: origins.client() }),
      makeTool("message", { origin: origins.plugin("chat") }),
      makeTool("message", { origin: origins.mcp("chat") }),
      makeTool("notify", { origin: origins.client() }),
      makeTool("lookup"),
    ]);
    const visible = visibleWhileCataloged(snapshot, new Set(["message", "notify"]));
    expect(visible.map((entry) => entry.id).sort()).toEqual(["native:core:exec", "native:core:read"]);
  });

  it("never promotes a name two tools share, and accepts native ids", () => {
    const { snapshot } = buildCatalog([
      makeTool("sessions_spawn"),
      makeTool("sessions_spawn", { origin: origins.mcp("agents") }),
      makeTool("lookup", { origin: origins.plugin("kb") }),
      makeTool("web_search"),
      makeTool("remote", { origin: origins.mcp("srv") }),
    ]);
    const visible = visibleWhileCataloged(
      snapshot,
      new Set(["sessions_spawn", "native:kb:lookup", "web_search", "mcp:srv:remote"]),
    );
    expect(visible.map((entry) => entry.id)).toEqual(["native:core:web_search", "native:kb:lookup"]);
  });
});

describe("snapshots", () => {
  it("have a stable fingerprint for the same tool set, whatever the order", () => {
    const tools = [makeTool("a"), makeTool("b", { parameters: { type: "object", properties: { x: {} } } })];
    const one = buildCatalog(tools).snapshot.fingerprint;
    const two = buildCatalog([...tools].reverse()).snapshot.fingerprint;
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(two).toBe(one);
  });

  it("change the fingerprint when a description or a trusted schema changes", () => {
    const base = buildCatalog([makeTool("a")]).snapshot.fingerprint;
    expect(buildCatalog([makeTool("a", { description: "other" })]).snapshot.fingerprint).not.toBe(base);
    const withSchema = buildCatalog([makeTool("a", { parameters: { type: "object" } })]).snapshot.fingerprint;
    expect(withSchema).not.toBe(base);
  });

  it("are immutable", () => {
    const { snapshot } = buildCatalog([makeTool("a")]);
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(Object.isFrozen(snapshot.entries)).toBe(true);
  });

  it("look up by id and by name", () => {
    const snapshot = createCatalogSnapshot(
      buildCatalog([makeTool("x"), makeTool("x", { origin: origins.mcp("s") })]).snapshot.entries,
    );
    expect(snapshot.get("native:core:x")?.source).toBe("native");
    expect(snapshot.withName("x").map((entry) => entry.id)).toEqual(["mcp:s:x", "native:core:x"]);
    expect(snapshot.withName("missing")).toEqual([]);
  });
});

describe("hostile metadata", () => {
  const throwing = (): ToolDefinition =>
    Object.defineProperties(makeTool("hostile"), {
      description: {
        get() {
          throw new Error("boom");
        },
      },
      label: {
        get() {
          throw new Error("boom");
        },
      },
      parameters: {
        get() {
          throw new Error("boom");
        },
      },
    });

  it("survives throwing getters", () => {
    const entry = toCatalogEntry(throwing());
    expect(entry?.description).toBe("");
    expect(entry?.label).toBe("");
    expect(entry?.parameters).toBeUndefined();
  });

  it("survives Proxies whose traps throw, and revoked Proxies", () => {
    const trap = new Proxy(makeTool("p"), {
      get(target, key) {
        if (key === "name") return "p";
        if (key === "execute") return target.execute;
        throw new Error("trap");
      },
    });
    expect(toCatalogEntry(trap)?.id).toBe("native:core:p");
    const { proxy, revoke } = Proxy.revocable(makeTool("r"), {});
    revoke();
    expect(toCatalogEntry(proxy)).toBeUndefined();
    expect(buildCatalog([proxy, makeTool("ok")]).rejected).toEqual([
      { index: 0, reason: "tool has no string name or no execute function" },
    ]);
  });

  it("keeps 20,000-character labels and descriptions whole at intake (the host reads them in details)", () => {
    const entry = toCatalogEntry(
      makeTool("big", { label: "L".repeat(20_000), description: "D".repeat(20_000) }),
    );
    expect(entry?.label).toBe("L".repeat(20_000));
    expect(entry?.description).toBe("D".repeat(20_000));
    const { snapshot } = buildCatalog([makeTool("big", { label: "L".repeat(20_000) })]);
    expect(snapshot.entries[0]?.label).toHaveLength(20_000);
  });

  it("bounds memory by the catalog-wide metadata budget, cutting only the longest fields", () => {
    const total = MAX_CATALOG_METADATA_CHARS;
    const { snapshot } = buildCatalog([
      makeTool("a_plain", { label: "Plain", description: "An ordinary description." }),
      makeTool("b_huge", { label: "L".repeat(total), description: "D".repeat(total) }),
      makeTool("c_plain", { description: "Another ordinary one." }),
    ]);
    const [plain, huge, other] = snapshot.entries;
    expect(plain?.label).toBe("Plain");
    expect(plain?.description).toBe("An ordinary description.");
    expect(other?.description).toBe("Another ordinary one.");
    expect(huge?.label.endsWith("...")).toBe(true);
    const sum = snapshot.entries.reduce(
      (size, entry) => size + entry.label.length + entry.description.length,
      0,
    );
    expect(sum).toBeLessThanOrEqual(total);
    expect(sum).toBeGreaterThan(total - 10);
  });

  it("cuts to one common length whatever the order, and leaves a catalog within budget untouched", () => {
    const entries = buildCatalog([
      makeTool("a", { description: "x".repeat(60) }),
      makeTool("b", { description: "y".repeat(30) }),
      makeTool("c", { description: "z".repeat(10), label: "" }),
    ]).snapshot.entries;
    expect(fitMetadataBudget(entries, 1_000)).toEqual(entries);
    const fitted = fitMetadataBudget(entries, 70);
    expect(fitted.map((entry) => entry.description.length)).toEqual([30, 30, 10]);
    expect(fitted[2]).toBe(entries[2]);
    expect(fitMetadataBudget([...entries].reverse(), 70).map((entry) => entry.description.length)).toEqual([
      10, 30, 30,
    ]);
  });

  it("rejects definitions without a string name or execute function", () => {
    const build = buildCatalog([
      { name: 42 } as unknown as ToolDefinition,
      { name: "no-execute" } as unknown as ToolDefinition,
      null as unknown as ToolDefinition,
    ]);
    expect(build.snapshot.entries).toEqual([]);
    expect(build.rejected).toHaveLength(3);
  });

  it("never reads an untrusted schema while building or fingerprinting", () => {
    const reads: PropertyKey[] = [];
    const schema = new Proxy(
      {},
      {
        get: (_target, key) => {
          reads.push(key);
          return undefined;
        },
        ownKeys: () => {
          reads.push("ownKeys");
          return [];
        },
      },
    );
    buildCatalog([
      makeTool("m", { origin: origins.mcp("s"), parameters: schema }),
      makeTool("c", { origin: origins.client(), parameters: schema }),
    ]);
    expect(reads).toEqual([]);
  });
});
