import { afterEach, describe, expect, it } from "vitest";
import { applySharedToolPolicy, type PolicyLayers } from "../../runtime/policy/index.js";
import {
  DEFAULT_CATALOG_CACHE_SIZE,
  setCatalogCacheSize,
  sharedCatalog,
  sharedCatalogCount,
  type ToolDefinition,
} from "../catalog/index.js";
import { createToolSearch } from "./create-tool-search.js";
import { readSealDevQueries, readSealTools, sealToolsAvailable } from "./seal-tools.test-support.js";

const VERBS = ["list", "get", "search", "create", "update", "delete", "send", "export"];
const OBJECTS = ["invoice", "customer", "ticket", "message", "file", "calendar event", "report", "order"];

function synthetic(): ToolDefinition[] {
  return VERBS.flatMap((verb, v) =>
    OBJECTS.map((object, o) => ({
      name: `${verb}_${object.replaceAll(" ", "_")}`,
      description: `${verb} ${object}s in the ${["billing", "crm", "support"][(v + o) % 3]} system`,
      parameters: {
        type: "object",
        properties: { [`${object.split(" ")[0]}_id`]: { type: "string", description: `The ${object} id.` } },
      },
      origin: { kind: "plugin", owner: ["billing", "crm", "support"][(v + o) % 3] as string },
      execute: async () => ({ content: [{ type: "text", text: verb }] }),
    })),
  );
}

const QUERIES = [
  "send the invoice to the customer",
  "find tickets",
  "export a report of orders",
  "delete calendar event",
  "update customer details and create an invoice",
  "crm",
];

const CLIENT_TOOL: ToolDefinition = {
  name: "send_postcard",
  description: "Send a postcard message to a customer.",
  parameters: { type: "object", properties: { to: { type: "string" } } },
  execute: async () => ({ content: [] }),
};

/** Everything a run's model sees from Tool Search, and what its searches find. */
function runView(
  tools: readonly ToolDefinition[],
  setUp: (search: ReturnType<typeof createToolSearch>) => void,
) {
  const search = createToolSearch({ tools, config: { enabled: true, mode: "tools" } });
  setUp(search);
  const view = {
    modelTools: search.modelTools().map((tool) => [tool.name, tool.description, tool.parameters]),
    directory: search.directory(),
    found: QUERIES.map((query) => search.search(query, { limit: 6 }).map((candidate) => candidate.id)),
    described: search.describe("send_invoice"),
  };
  search.close();
  return view;
}

/** The same run with sharing off (every catalog built fresh) and on (a warm shared catalog, used twice). */
function freshAndShared(
  tools: readonly ToolDefinition[],
  setUp: (search: ReturnType<typeof createToolSearch>) => void = () => {},
) {
  setCatalogCacheSize(0);
  const fresh = runView(tools, setUp);
  setCatalogCacheSize(DEFAULT_CATALOG_CACHE_SIZE);
  runView(tools, setUp);
  return { fresh, shared: runView(tools, setUp) };
}

afterEach(() => setCatalogCacheSize(DEFAULT_CATALOG_CACHE_SIZE));

describe("catalogs shared across runs", () => {
  it("the same definitions find the same catalog, also in a new array, and a new definition does not", () => {
    setCatalogCacheSize(0);
    setCatalogCacheSize(DEFAULT_CATALOG_CACHE_SIZE);
    const tools = synthetic();
    const first = sharedCatalog(tools);
    expect(sharedCatalog(tools)).toBe(first);
    expect(sharedCatalog([...tools])).toBe(first);
    expect(sharedCatalogCount()).toBe(1);

    const renamed = tools.map((tool, index) => (index === 3 ? { ...tool, name: "renamed_tool" } : tool));
    const next = sharedCatalog(renamed);
    expect(next).not.toBe(first);
    expect(next.snapshot.fingerprint).not.toBe(first.snapshot.fingerprint);
    expect(next.snapshot.entries.map((entry) => entry.name)).toContain("renamed_tool");
  });

  it("a run over a shared catalog shows and finds exactly what a fresh build does", () => {
    const { fresh, shared } = freshAndShared(synthetic());
    expect(shared).toEqual(fresh);
    expect(shared.found.flat().length).toBeGreaterThan(10);
  });

  it("restricted views and client tools on top of a shared catalog match fresh builds, and leave it as it was", () => {
    const tools = synthetic();
    const restricted = freshAndShared(tools, (search) =>
      search.restrict(["send_invoice", "create_invoice", "list_customer", "get_order"]),
    );
    expect(restricted.shared).toEqual(restricted.fresh);
    expect(
      restricted.shared.found
        .flat()
        .every((id) => /send_invoice|create_invoice|list_customer|get_order/.test(id)),
    ).toBe(true);

    const withClient = freshAndShared(tools, (search) => search.addClientTools([CLIENT_TOOL]));
    expect(withClient.shared).toEqual(withClient.fresh);
    expect(withClient.shared.found[0]).toContain("client:client:send_postcard");

    // The shared catalog itself never took the view's narrowing or the client's tool.
    const plain = freshAndShared(tools);
    expect(plain.shared.found.flat()).not.toContain("client:client:send_postcard");
    expect(plain.shared.found.flat()).toContain("native:crm:export_report");
  });

  it("policy verdicts are shared per policy content, and the admitted list leads to one catalog", () => {
    const tools = synthetic();
    const layers: PolicyLayers = { agentId: "main", global: { deny: ["delete_*"] } };
    const first = applySharedToolPolicy(tools, layers);
    const again = applySharedToolPolicy([...tools], { agentId: "main", global: { deny: ["delete_*"] } });
    expect(again).toBe(first);
    expect(first.admitted.some((tool) => tool.name.startsWith("delete_"))).toBe(false);
    expect(sharedCatalog(first.admitted)).toBe(sharedCatalog(again.admitted));

    const other = applySharedToolPolicy(tools, { agentId: "main", global: { deny: ["send_*"] } });
    expect(other).not.toBe(first);
    expect(other.admitted.some((tool) => tool.name.startsWith("delete_"))).toBe(true);
    expect(Object.isFrozen(first.admitted)).toBe(true);
  });

  it("a definition that reads differently each time (a getter) is judged afresh every run", () => {
    let current = "first_name";
    const shifting = {
      get name() {
        return current;
      },
      description: "A tool whose name changes.",
      execute: async () => ({ content: [] }),
    } as unknown as ToolDefinition;
    const layers: PolicyLayers = { agentId: "main" };
    const before = applySharedToolPolicy([shifting], layers).admitted.map((tool) => tool.name);
    current = "second_name";
    const after = applySharedToolPolicy([shifting], layers).admitted.map((tool) => tool.name);
    expect(before).toEqual(["first_name"]);
    expect(after).toEqual(["second_name"]);
  });

  it("a changed description, schema or origin is seen by the next run", () => {
    const tools = synthetic();
    const base = runView(tools, () => {});
    const index = tools.findIndex((tool) => tool.name === "send_invoice");
    const changed = (patch: Partial<ToolDefinition>) =>
      runView(
        tools.map((tool, at) => (at === index ? { ...tool, ...patch } : tool)),
        () => {},
      );
    const described = changed({ description: "Send invoices by carrier pigeon." });
    expect(described.described).not.toEqual(base.described);
    expect(JSON.stringify(described.described)).toContain("carrier pigeon");
    const schema = changed({ parameters: { type: "object", properties: { pigeon: { type: "string" } } } });
    expect(JSON.stringify(schema.described)).toContain("pigeon");
    const moved = changed({ origin: { kind: "mcp", owner: "post" } });
    expect(JSON.stringify(moved.found)).toContain("mcp:post:send_invoice");
  });

  it("holds at most catalogCacheSize tool sets, and none with 0", () => {
    setCatalogCacheSize(2);
    const sets = [0, 1, 2, 3, 4].map(() => synthetic());
    for (const set of sets) sharedCatalog(set);
    expect(sharedCatalogCount()).toBe(2);
    // The most recent sets are the ones kept.
    const last = sharedCatalog(sets[4] ?? []);
    expect(sharedCatalog(sets[4] ?? [])).toBe(last);
    setCatalogCacheSize(0);
    expect(sharedCatalogCount()).toBe(0);
    expect(sharedCatalog(sets[4] ?? [])).not.toBe(sharedCatalog(sets[4] ?? []));
  });
});

describe.runIf(sealToolsAvailable)("shared catalog on Seal-Tools (4,076 tools)", () => {
  it("shared and fresh runs agree on 200 dev queries, with a policy view and a client tool", () => {
    const tools = readSealTools({ kind: "plugin", owner: "seal" });
    const queries = readSealDevQueries(200);
    const layers: PolicyLayers = { agentId: "main", global: { deny: ["*Weather*", "*weather*"] } };
    const ranking = (cacheSize: number) => {
      setCatalogCacheSize(cacheSize);
      const admitted = applySharedToolPolicy(tools, layers).admitted;
      const results: string[][][] = [];
      for (let run = 0; run < 2; run += 1) {
        const search = createToolSearch({ tools: admitted, config: { enabled: true, mode: "tools" } });
        search.addClientTools([CLIENT_TOOL]);
        results.push(queries.map((query) => search.search(query, { limit: 8 }).map((found) => found.id)));
        search.close();
      }
      return results;
    };
    const fresh = ranking(0);
    const shared = ranking(DEFAULT_CATALOG_CACHE_SIZE);
    expect(shared).toEqual(fresh);
    expect(shared[0]).toEqual(shared[1]);
    expect(fresh[0]?.flat().some((id) => /weather/i.test(id))).toBe(false);
  });
});
