import { afterEach, describe, expect, it } from "vitest";
import { createToolSearch, modelToolEntry } from "../../core/tool-search/index.js";
import { createMcpToolSource } from "./create-mcp-tool-source.js";
import { logCollector, stdioFixture } from "./mcp.test-support.js";
import { checkPinnedSchema } from "./pin-mcp-tool.js";
import type { McpToolSource } from "./types.js";

const sources: McpToolSource[] = [];
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});

describe("mcp.servers.<id>.alwaysVisible (a real stdio MCP server)", () => {
  it("keeps pinned tools visible as <server>__<tool> with their schema, validated before anything is sent", async () => {
    const logs = logCollector();
    const source = createMcpToolSource(
      {
        crm: {
          ...stdioFixture({ prefix: "crm", count: 4 }),
          alwaysVisible: ["crm_create_contact", "not_listed_anywhere"],
        },
      },
      logs,
    );
    sources.push(source);
    await source.start();
    const search = createToolSearch({ tools: source.tools() });
    const declared = search.modelTools();
    expect(declared.map((tool) => tool.name)).toEqual([
      "tool_search",
      "tool_describe",
      "tool_call",
      "crm__crm_create_contact",
    ]);
    const pinned = declared[3];
    expect(pinned?.parameters).toMatchObject({ type: "object", required: ["id"] });
    // Declared as <server>__<tool>, attributed (session log, effective surface) to its catalog id.
    expect(pinned && modelToolEntry(pinned)?.id).toBe("mcp:crm:crm_create_contact");

    const ok = await pinned?.execute({ id: "c-1" }, {});
    expect(ok?.isError).toBeUndefined();
    expect(JSON.stringify(ok?.content)).toContain('crm_create_contact ok {\\"id\\":\\"c-1\\"}');

    const refused = await pinned?.execute({ note: "no id" }, {});
    expect(refused?.isError).toBe(true);
    expect(JSON.stringify(refused?.content)).toContain(
      "Invalid arguments for tool \\\"mcp:crm:crm_create_contact\\\": arguments must have required property 'id'.",
    );
    expect(JSON.stringify(refused?.content)).toContain("Nothing was sent to the server");

    // the other tools stay behind the controls
    expect(search.search("crm contact", { limit: 8 }).map((candidate) => candidate.id)).toContain(
      "mcp:crm:crm_create_contact",
    );
    expect(logs.lines.join("\n")).toContain(
      'mcp crm: mcp.servers.crm.alwaysVisible names "not_listed_anywhere", which the server does not list',
    );
  });

  it("leaves a tool whose schema cannot be pinned behind tool_search, and says why", () => {
    expect(checkPinnedSchema({ type: "array" })).toEqual({
      ok: false,
      reason: 'its input schema does not have type "object"',
    });
    expect(checkPinnedSchema("x")).toEqual({ ok: false, reason: "its input schema is not a JSON object" });
    const broken = checkPinnedSchema({ type: "object", properties: { a: { type: "no-such-type" } } });
    expect(broken.ok).toBe(false);
    expect(checkPinnedSchema(undefined).ok).toBe(true);
    expect(
      checkPinnedSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" }).ok,
    ).toBe(true);
  });
});
