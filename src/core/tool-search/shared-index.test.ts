import { describe, expect, it } from "vitest";
import { buildCatalog, type ToolDefinition } from "../catalog/index.js";
import { createSearchIndex } from "../search/index.js";
import { createToolSearch } from "./create-tool-search.js";
import { readSealDevQueries, readSealTools, sealToolsAvailable } from "./seal-tools.test-support.js";

const VERBS = ["list", "get", "search", "create", "update", "delete", "send", "export"];
const OBJECTS = ["invoice", "customer", "ticket", "message", "file", "calendar event", "report", "order"];

/** A synthetic catalog with overlapping verbs and objects; `tag` marks which instance's execute ran. */
function synthetic(tag: string, ran: string[], describe = (text: string) => text): ToolDefinition[] {
  return VERBS.flatMap((verb, v) =>
    OBJECTS.map((object, o) => {
      const name = `${verb}_${object.replaceAll(" ", "_")}`;
      return {
        name,
        description: describe(
          `${verb} ${object}s in the ${["billing", "crm", "support"][(v + o) % 3]} system`,
        ),
        parameters: {
          type: "object",
          properties: {
            [`${object.split(" ")[0]}_id`]: { type: "string", description: `The ${object} id.` },
          },
        },
        origin: { kind: "plugin", owner: ["billing", "crm", "support"][(v + o) % 3] as string },
        execute: async () => {
          ran.push(`${tag}:${name}`);
          return { content: [{ type: "text", text: name }] };
        },
      } satisfies ToolDefinition;
    }),
  );
}

const QUERIES = [
  "send the invoice to the customer",
  "find tickets",
  "export a report of orders",
  "delete calendar event",
  "update customer details and create an invoice",
  "message",
  "list_invoice",
  "crm",
];

/** The ids a freshly built index ranks for each query (no sharing). */
function freshRanking(
  tools: readonly ToolDefinition[],
  queries: readonly string[],
  limit: number,
): string[][] {
  const index = createSearchIndex(buildCatalog(tools).snapshot.entries);
  return queries.map((query) => index.search(query, limit).map((entry) => entry.id));
}

const ids = (search: ReturnType<typeof createToolSearch>, queries: readonly string[], limit: number) =>
  queries.map((query) => search.search(query, { limit }).map((candidate) => candidate.id));

describe("search indexes shared across runs by catalog fingerprint", () => {
  it("a later run with the same tools ranks exactly as a fresh index, and calls its own definitions", async () => {
    const ran: string[] = [];
    const first = createToolSearch({ tools: synthetic("first", ran) });
    expect(ids(first, QUERIES, 8)).toEqual(freshRanking(synthetic("fresh", ran), QUERIES, 8));
    first.close();

    const second = createToolSearch({ tools: synthetic("second", ran) });
    expect(ids(second, QUERIES, 8)).toEqual(freshRanking(synthetic("fresh", ran), QUERIES, 8));
    const top = second.search("send the invoice", { limit: 1 })[0];
    await second.call(top?.id ?? "", {});
    // The shared index found the entry; the call ran this run's definition, not the first run's.
    expect(ran).toEqual(["second:send_invoice"]);
    second.close();
  });

  it("a changed description is seen at once: the ranking follows the new text", () => {
    const ran: string[] = [];
    const before = createToolSearch({ tools: synthetic("before", ran) });
    const rankedBefore = ids(before, ["quarterly payroll"], 8);
    before.close();
    expect(rankedBefore).toEqual([[]]);
    const edited = synthetic("after", ran, (text) =>
      text.startsWith("export reports") ? `${text}, such as the quarterly payroll` : text,
    );
    const after = createToolSearch({ tools: edited });
    expect(ids(after, ["quarterly payroll"], 8)).toEqual([["native:crm:export_report"]]);
    after.close();
  });

  it("restricted views and client tools rank as fresh indexes over the same entries", () => {
    const ran: string[] = [];
    const allowed = ["send_invoice", "create_invoice", "list_customer", "delete_ticket", "get_order"];
    const narrowed = createToolSearch({ tools: synthetic("view", ran) });
    narrowed.restrict(allowed);
    const kept = synthetic("fresh", ran).filter((tool) => allowed.includes(tool.name));
    expect(ids(narrowed, QUERIES, 5)).toEqual(freshRanking(kept, QUERIES, 5));
    narrowed.close();

    const client: ToolDefinition = {
      name: "send_postcard",
      description: "Send a postcard message to a customer.",
      execute: async () => ({ content: [] }),
    };
    const withClient = createToolSearch({ tools: synthetic("client", ran) });
    withClient.addClientTools([client]);
    const expected = freshRanking(
      [...synthetic("fresh", ran), { ...client, origin: { kind: "client", owner: "client" } }],
      QUERIES,
      8,
    );
    expect(ids(withClient, QUERIES, 8)).toEqual(expected);
    withClient.close();
  });
});

describe.runIf(sealToolsAvailable)("on Seal-Tools (4,076 tools)", () => {
  it("a reused index gives exactly the fresh ranking for 300 dev queries", () => {
    const tools = readSealTools();
    const queries = readSealDevQueries(300);
    const expected = freshRanking(tools, queries, 8);
    for (let run = 0; run < 2; run += 1) {
      const search = createToolSearch({ tools });
      expect(ids(search, queries, 8)).toEqual(expected);
      search.close();
    }
  });
});
