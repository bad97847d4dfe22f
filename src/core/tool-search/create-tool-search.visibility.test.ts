import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { makeTool, origins } from "../catalog/catalog.test-support.js";
import { type ToolDefinition, type ToolResult, toCatalogEntry } from "../catalog/index.js";
import { createToolSearch } from "./index.js";

const spawnParameters = {
  type: "object",
  properties: { task: { type: "string" } },
  required: ["task"],
};

function sharedNameTools(): ToolDefinition[] {
  return [
    makeTool("sessions_spawn", { description: "Spawn a sub-agent session.", parameters: spawnParameters }),
    makeTool("sessions_spawn", { origin: origins.mcp("agents"), description: "Spawn a remote session." }),
    makeTool("web_search", { description: "Search the web." }),
    makeTool("send_email", { origin: origins.plugin("mail"), description: "Send an email." }),
  ];
}

function declared(search: ReturnType<typeof createToolSearch>): string[] {
  return search.modelTools().map((tool) => tool.name);
}

describe("a name two tools share", () => {
  it("is not promoted by directToolNames, is not listed in the directory, and is not resolved by name", async () => {
    const search = createToolSearch({
      tools: sharedNameTools(),
      directToolNames: ["sessions_spawn", "web_search"],
      config: { mode: "directory" },
    });
    expect(declared(search)).toEqual(["tool_search", "tool_describe", "tool_call", "web_search"]);
    const directory = search.directory() ?? "";
    expect(directory).not.toContain("sessions_spawn");
    expect(directory).toContain("- send_email (mail)");
    expect(search.resolveDirectoryName("sessions_spawn")).toBeUndefined();
    let code: string | undefined;
    try {
      search.describe("sessions_spawn");
    } catch (error) {
      code = isToolsiftError(error) ? error.code : "other";
    }
    expect(code).toBe("AMBIGUOUS_TOOL");
    const call = search.modelTools().find((tool) => tool.name === "tool_call");
    const result = (await call?.execute({ id: "sessions_spawn", args: { task: "x" } }, {})) as ToolResult;
    expect(result.isError).toBe(true);
    expect((result.details as { error: { code: string } }).error.code).toBe("AMBIGUOUS_TOOL");
    // each is still reachable by id
    expect(search.describe("native:core:sessions_spawn").id).toBe("native:core:sessions_spawn");
    expect(search.describe("mcp:agents:sessions_spawn").id).toBe("mcp:agents:sessions_spawn");
  });
});

describe("pinning from config: tools.toolSearch.alwaysVisible", () => {
  it("keeps the named native tools (by name or id) directly visible and out of the directory", () => {
    const search = createToolSearch({
      tools: sharedNameTools(),
      config: { mode: "directory", alwaysVisible: ["web_search", "native:mail:send_email"] },
    });
    expect(declared(search)).toEqual([
      "tool_search",
      "tool_describe",
      "tool_call",
      "web_search",
      "send_email",
    ]);
    const directory = search.directory() ?? "";
    expect(directory).not.toContain("web_search");
    expect(directory).not.toContain("send_email");
    // still searchable and callable by id
    expect(search.search("send email", { limit: 1 })[0]?.id).toBe("native:mail:send_email");
  });

  it("never pins an MCP tool or a shared name through it", () => {
    const search = createToolSearch({
      tools: sharedNameTools(),
      config: { alwaysVisible: ["sessions_spawn", "mcp:agents:sessions_spawn"] },
    });
    expect(declared(search)).toEqual(["tool_search", "tool_describe", "tool_call"]);
  });

  it("refuses a value that is not a list of names", () => {
    let message = "";
    try {
      // @ts-expect-error a run-time check for callers without types (JSON, plain JS)
      createToolSearch({ tools: [], config: { alwaysVisible: "web_search" } });
    } catch (error) {
      message = error instanceof Error ? error.message : "";
    }
    expect(message).toBe(
      'tools.toolSearch.alwaysVisible: expected a list of native tool names or ids, e.g. ["web_search"] (got "web_search")',
    );
  });
});

describe("pinned MCP tools (alwaysVisible on the definition, set by the MCP tool source)", () => {
  const pinned = (): ToolDefinition =>
    Object.assign(
      makeTool("create_event", {
        origin: origins.mcp("calendar"),
        description: "Create a calendar event.",
        parameters: { type: "object", properties: { title: { type: "string" } } },
        alwaysVisible: true,
      }),
      { directName: "calendar__create_event" },
    );

  it("are declared as <server>__<tool> with their schema, and run through the executor", async () => {
    const search = createToolSearch({
      tools: [pinned(), makeTool("other", { origin: origins.mcp("calendar") })],
    });
    const tools = search.modelTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "tool_search",
      "tool_describe",
      "tool_call",
      "calendar__create_event",
    ]);
    const visible = tools[3];
    expect(visible?.parameters).toEqual({ type: "object", properties: { title: { type: "string" } } });
    expect(visible?.origin).toEqual({ kind: "mcp", owner: "calendar" });
    const result = await visible?.execute({ title: "Planning" }, {});
    expect(JSON.stringify(result?.content)).toContain("Planning");
    // the catalog keeps its id and plain name
    expect(search.describe("mcp:calendar:create_event").name).toBe("create_event");
  });

  it("are never pinned when they come from the client, whatever the definition says", () => {
    const search = createToolSearch({
      tools: [makeTool("pick_file", { origin: origins.client(), alwaysVisible: true })],
    });
    expect(declared(search)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect(
      toCatalogEntry(makeTool("pick_file", { origin: origins.client(), alwaysVisible: true }))?.pinned,
    ).toBe(false);
    expect(toCatalogEntry(makeTool("native_pin", { alwaysVisible: true }))?.pinned).toBe(true);
  });
});
