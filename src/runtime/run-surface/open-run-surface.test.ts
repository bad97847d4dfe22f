import { afterEach, describe, expect, it } from "vitest";
import type { McpToolDefinition, ToolDefinition } from "../../core/catalog/index.js";
import { mcpDirectName } from "../../core/catalog/index.js";
import { readToolSearchSettings, type ToolSearchConfigValue } from "../../core/tool-search/index.js";
import type { BeforeToolCallEvent, LoadedPlugins } from "../plugins/index.js";
import type { PolicyLayers } from "../policy/index.js";
import { openRunSurface } from "./open-run-surface.js";
import type { RunEvent } from "./run-events.js";
import type { TargetActivity } from "./target-activity.js";
import type { RunSurface, RunSurfaceRun } from "./types.js";

const ran: string[] = [];
const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: `${name.replaceAll("_", " ")} for the tests`,
  parameters: { type: "object", properties: { id: { type: "string" } } },
  origin: { kind: "plugin", owner: "tests" },
  execute: async (args) => {
    ran.push(name);
    return { content: [{ type: "text", text: `${name} ran ${JSON.stringify(args)}` }] };
  },
  ...extra,
});
const mcpTool = (server: string, name: string): McpToolDefinition => ({
  ...tool(name),
  origin: { kind: "mcp", owner: server },
  directName: mcpDirectName(server, name),
  mcp: { server, tool: name },
});
/** Plugins whose only hook blocks every call to `blocked`. */
const blocking = (blocked: string, seen: BeforeToolCallEvent[] = []): LoadedPlugins => ({
  plugins: [],
  tools: [],
  hooks: {
    beforeToolCall: [
      {
        pluginId: "guard",
        handler: (event) => {
          seen.push(event);
          return event.toolName === blocked ? { block: `${blocked} is blocked by the guard` } : undefined;
        },
      },
    ],
    beforePrompt: [],
  },
  errors: [],
  skipped: [],
});

let surface: RunSurface | undefined;
afterEach(() => {
  surface?.close();
  surface = undefined;
  ran.length = 0;
});

/** A run of agent `main` on the embedded harness, with the environment and profile parts a test sets. */
type OpenOptions = Pick<RunSurfaceRun, "tools"> &
  Partial<Pick<RunSurfaceRun, "clientTools" | "codeMode" | "promptText">> & {
    settings?: ToolSearchConfigValue;
    policy?: PolicyLayers;
    plugins?: LoadedPlugins;
  };

async function open(options: OpenOptions) {
  const { settings, policy, plugins, ...run } = options;
  const events: RunEvent[] = [];
  const activity: TargetActivity[] = [];
  const toolSearch = readToolSearchSettings(settings).settings;
  if (!toolSearch) throw new Error(`invalid test settings: ${JSON.stringify(settings)}`);
  surface = await openRunSurface(
    { toolSearch, ...(plugins ? { plugins } : {}) },
    {
      profile: { id: "main", harness: "embedded", ...(policy ? { policy } : {}) },
      sessionKey: "surface-test",
      onEvent: (event) => events.push(event),
      onTargetActivity: (item) => activity.push(item),
      unknownToolText: (name, enabled) => `no ${name} (tool search ${enabled ? "on" : "off"})`,
      ...run,
    },
  );
  return { surface, events, activity };
}

describe("openRunSurface with Tool Search on", () => {
  it("declares the controls, and a search and a tool_call emit their events and target activity", async () => {
    const { surface, events, activity } = await open({
      tools: [tool("invoice_create"), tool("invoice_list")],
    });
    expect(surface.toolSearchEnabled).toBe(true);
    expect(surface.modelTools().map((declared) => declared.name)).toEqual([
      "tool_search",
      "tool_describe",
      "tool_call",
    ]);
    expect(surface.directory()).toContain("invoice_create");

    const search = await surface.execute("tool_search", { query: "create an invoice" }, { toolCallId: "c1" });
    expect(search.result.isError).toBeFalsy();
    expect(search.attribution).toEqual({});
    const call = await surface.execute(
      "tool_call",
      { id: "invoice_create", args: { id: "7" } },
      { toolCallId: "c2" },
    );
    expect(call.text).toContain("invoice_create ran");
    expect(ran).toEqual(["invoice_create"]);

    expect(events.map((event) => event.type)).toEqual([
      "tool-call-start",
      "tool-call-finish",
      "search-finish",
      "tool-call-start",
      "tool-call-finish",
    ]);
    const searched = events[2] as Extract<RunEvent, { type: "search-finish" }>;
    expect(searched.callId).toBe("c1");
    expect(searched.queries).toEqual(["create an invoice"]);
    expect(searched.hits).toBeGreaterThanOrEqual(1);
    expect(events[4]).toMatchObject({
      type: "tool-call-finish",
      callId: "c2",
      name: "tool_call",
      isError: false,
    });
    // The call behind tool_call is the run's target activity, under the model's call id.
    expect(activity).toEqual([expect.objectContaining({ parentCallId: "c2", name: "invoice_create" })]);
  });

  it("answers an unknown name with the front door's text, as an error result, and runs nothing", async () => {
    const { surface, events } = await open({ tools: [tool("invoice_create")] });
    const call = await surface.execute("invoice_create", {}, { toolCallId: "c1" });
    expect(call.result.isError).toBe(true);
    expect(call.text).toBe("no invoice_create (tool search on)");
    expect(ran).toEqual([]);
    expect(events).toEqual([
      {
        type: "tool-call-finish",
        callId: "c1",
        name: "invoice_create",
        isError: true,
        output: "no invoice_create (tool search on)",
      },
    ]);
  });

  it("reports a batch search's queries and the candidates of all its groups", async () => {
    const { surface, events } = await open({ tools: [tool("invoice_create"), tool("ticket_open")] });
    await surface.execute(
      "tool_search",
      { queries: [{ query: "invoice" }, { query: "ticket" }] },
      { toolCallId: "b1" },
    );
    const searched = events.find((event) => event.type === "search-finish");
    expect(searched).toMatchObject({ queries: ["invoice", "ticket"], hits: 2 });
  });
});

describe("openRunSurface with Tool Search off", () => {
  it("declares MCP tools as <server>__<tool>, judges and logs them by their catalog entry", async () => {
    const seen: BeforeToolCallEvent[] = [];
    const { surface, events } = await open({
      tools: [tool("notes_add"), mcpTool("crm", "create_lead"), mcpTool("crm", "close_deal")],
      settings: false,
      policy: { global: { deny: ["close_deal"] } },
      plugins: blocking("notes_add", seen),
    });
    expect(surface.toolSearchEnabled).toBe(false);
    expect(surface.directory()).toBeUndefined();
    expect(surface.modelTools().map((declared) => declared.name)).toEqual(["notes_add", "crm__create_lead"]);
    expect(surface.describeCall("crm__create_lead")).toEqual({
      toolId: "mcp:crm:create_lead",
      source: "mcp",
    });

    const lead = await surface.execute("crm__create_lead", { id: "L1" }, { toolCallId: "d1" });
    expect(lead.result.isError).toBeFalsy();
    expect(lead.attribution).toEqual({ toolId: "mcp:crm:create_lead", source: "mcp" });
    // The hook saw the call under the tool's own name, on the direct surface.
    expect(seen.at(-1)).toMatchObject({ toolName: "create_lead" });

    // A direct call still passes the plugin hooks: nothing runs.
    const note = await surface.execute("notes_add", { id: "n" }, { toolCallId: "d2" });
    expect(note.result.isError).toBe(true);
    expect(note.text).toContain("blocked by the guard");
    expect(ran).toEqual(["create_lead"]);
    // A denied tool is never declared, and unknown there.
    expect((await surface.execute("crm__close_deal", {}, { toolCallId: "d3" })).text).toBe(
      "no crm__close_deal (tool search off)",
    );
    expect(events.filter((event) => event.type === "search-finish")).toEqual([]);
  });

  it("replaceTools re-declares from the new set and retires the old routes", async () => {
    const { surface } = await open({ tools: [mcpTool("crm", "create_lead")], settings: false });
    const before = surface.modelTools()[0] as ToolDefinition;
    surface.replaceTools([mcpTool("crm", "create_lead"), mcpTool("crm", "merge_leads")]);
    expect(surface.modelTools().map((declared) => declared.name)).toEqual([
      "crm__create_lead",
      "crm__merge_leads",
    ]);
    const stale = await before.execute({ id: "x" }, { toolCallId: "s1" });
    expect(stale.isError).toBe(true);
    expect((await surface.execute("crm__merge_leads", {}, { toolCallId: "s2" })).result.isError).toBeFalsy();
    expect(ran).toEqual(["merge_leads"]);
  });
});

describe("openRunSurface with Code Mode", () => {
  it("routes a direct-only tool declared beside exec and wait through the pipeline", async () => {
    const { surface } = await open({
      tools: [tool("invoice_create"), tool("reply_to_user", { catalogMode: "direct-only" })],
      codeMode: { timeoutMs: 5_000 },
      plugins: blocking("reply_to_user"),
    });
    const names = surface.modelTools().map((declared) => declared.name);
    expect(names).toContain("reply_to_user");
    expect(names).not.toContain("tool_search");
    const reply = await surface.execute("reply_to_user", { id: "r" }, { toolCallId: "r1" });
    expect(reply.result.isError).toBe(true);
    expect(reply.text).toContain("blocked by the guard");
    expect(ran).toEqual([]);
  });
});

describe("openRunSurface with before_prompt hooks", () => {
  it("narrows the catalog to the hooks' allow list when the front door gives the prompt text", async () => {
    const plugins = blocking("none");
    plugins.hooks.beforePrompt.push({ pluginId: "narrow", handler: () => ({ toolsAllow: ["ticket_open"] }) });
    const tools = [tool("invoice_create"), tool("ticket_open")];
    const narrowed = await open({ tools, plugins, promptText: "open a ticket" });
    expect(narrowed.surface.directory()).not.toContain("invoice_create");
    narrowed.surface.close();
    // Without prompt text (mcp serve), before_prompt hooks are not run.
    const whole = await open({ tools, plugins });
    expect(whole.surface.directory()).toContain("invoice_create");
  });
});
