import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { mcpDirectName } from "../../core/catalog/index.js";
import { createApprovalBroker } from "../../runtime/approvals/index.js";
import type { McpServerStatus, McpToolDefinition } from "../../runtime/mcp-client/index.js";
import type { SessionEvent, SessionStore } from "../../runtime/sessions/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { createMcpFrontend, type McpFrontend, type McpFrontendOptions } from "./create-mcp-frontend.js";
import { type TestServeOptions, testServeShared } from "./mcp-frontend.test-support.js";

/** An upstream tool as createMcpToolSource would make it, answering with its name and arguments. */
function upstream(server: string, name: string): McpToolDefinition {
  return {
    name,
    description: `Upstream ${name.replaceAll("_", " ")} on ${server}.`,
    parameters: { type: "object", properties: { id: { type: "string" } } },
    origin: { kind: "mcp", owner: server },
    directName: mcpDirectName(server, name),
    mcp: { server, tool: name },
    execute: async (args) => ({
      content: [{ type: "text", text: `${server}/${name} ${JSON.stringify(args)}` }],
    }),
  };
}

const plugin: ToolDefinition = {
  name: "notes_add",
  description: "Add a note.",
  origin: { kind: "plugin", owner: "notes" },
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: async (args) => ({ content: [{ type: "text", text: `NOTE ${JSON.stringify(args)}` }] }),
};

/** A tool source whose list the test changes by hand. */
function fakeSource(initial: McpToolDefinition[]) {
  let tools = initial;
  const listeners = new Set<() => void>();
  return {
    tools: () => tools,
    status: (): McpServerStatus[] => [{ name: "crm", status: "ready", tools: tools.length }],
    onToolsChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change(next: McpToolDefinition[]) {
      tools = next;
      for (const listener of listeners) listener();
    },
  };
}

function memorySessions(): SessionStore & { events: SessionEvent[] } {
  const events: SessionEvent[] = [];
  return {
    events,
    append: async (_agentId, _sessionKey, event) => {
      events.push(event);
    },
    read: async () => [...events],
    list: async () => [],
  };
}

const frontends: McpFrontend[] = [];
afterEach(async () => {
  await Promise.all(frontends.splice(0).map((frontend) => frontend.close()));
});

async function connect(
  options: Pick<McpFrontendOptions, "source"> &
    Omit<TestServeOptions, "sessions"> & { sessions?: SessionStore },
) {
  const sessions = memorySessions();
  const { source, ...serve } = options;
  const frontend = createMcpFrontend({ source, ...testServeShared({ sessions, ...serve }) });
  frontends.push(frontend);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await frontend.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  const notices: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notices.push("list_changed");
  });
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      isError: result.isError === true,
      text: result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n"),
    };
  };
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
  return { client, call, names, notices, sessions, frontend };
}

describe("createMcpFrontend (in memory)", () => {
  it("names only the upstream servers that did not fail in its instructions", async () => {
    const source = {
      ...fakeSource([upstream("crm", "create_lead")]),
      status: (): McpServerStatus[] => [
        { name: "crm", status: "ready", tools: 1 },
        { name: "broken", status: "failed", tools: 0, error: "did not start" },
        { name: "slow", status: "starting", tools: 0 },
      ],
    };
    const { client } = await connect({ source, tools: [] });
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("Upstream MCP servers: crm, slow.");
    expect(instructions).not.toContain("broken");
  });

  it("lists the controls, calls through them, and logs results and target activity", async () => {
    const source = fakeSource([upstream("crm", "create_lead"), upstream("crm", "close_deal")]);
    const { call, names, sessions } = await connect({ source, tools: [plugin] });
    expect(await names()).toEqual(["tool_search", "tool_describe", "tool_call"]);
    const answer = await call("tool_call", { id: "mcp:crm:create_lead", args: { id: "L1" } });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('crm/create_lead {\\"id\\":\\"L1\\"}');
    expect(sessions.events.map((event) => event.type)).toEqual([
      "session",
      "target-activity",
      "tool-result",
      "run-summary",
    ]);
    expect(sessions.events[0]).toMatchObject({ type: "session", agentId: "mcp" });
    expect(sessions.events[1]).toMatchObject({
      toolId: "mcp:crm:create_lead",
      source: "mcp",
      parentCallId: "mcp-2",
    });
    expect(sessions.events[2]).toMatchObject({ name: "tool_call", callId: "mcp-2", isError: false });
    expect(sessions.events[3]).toMatchObject({
      type: "run-summary",
      status: "completed",
      turns: 0,
      telemetry: { callCount: 1 },
    });
    // One call is one run: its three lines share a run id.
    expect(new Set(sessions.events.slice(1).map((event) => event.runId)).size).toBe(1);
  });

  it("logs each call as a run of its own, with a summary, and the session as one file", async () => {
    const source = fakeSource([upstream("crm", "create_lead")]);
    const { call, sessions } = await connect({ source, toolSearch: false });
    await call("crm__create_lead", { id: "A" });
    await call("crm__create_lead", { id: "B" });
    const summaries = sessions.events.filter((event) => event.type === "run-summary");
    expect(summaries).toHaveLength(2);
    expect(new Set(summaries.map((event) => event.runId)).size).toBe(2);
    const results = sessions.events.filter((event) => event.type === "tool-result");
    expect(results.map((event) => event.runId)).toEqual(summaries.map((event) => event.runId));
    expect(sessions.events.filter((event) => event.type === "session")).toHaveLength(1);
  });

  it("ends the run of a call the client cancelled as incomplete", async () => {
    let started = false;
    const waiting: ToolDefinition = {
      ...plugin,
      execute: (_args, context) =>
        new Promise((resolve) => {
          started = true;
          context?.signal?.addEventListener("abort", () =>
            resolve({ content: [{ type: "text", text: "stopped" }], isError: true }),
          );
        }),
    };
    const { client, sessions } = await connect({
      source: fakeSource([]),
      tools: [waiting],
      toolSearch: false,
    });
    const controller = new AbortController();
    const call = client.callTool({ name: "notes_add", arguments: { text: "x" } }, undefined, {
      signal: controller.signal,
    });
    await expect.poll(() => started).toBe(true);
    controller.abort("the user gave up");
    await expect(call).rejects.toThrow();
    await expect
      .poll(() => sessions.events.find((event) => event.type === "run-summary"))
      .toMatchObject({ status: "incomplete", error: "CANCELLED: the client cancelled the call." });
  });

  it("refuses a call before it runs while the state directory cannot be written, and recovers", async () => {
    let runs = 0;
    const counted: ToolDefinition = {
      ...plugin,
      execute: async () => {
        runs += 1;
        return { content: [{ type: "text", text: "ran" }] };
      },
    };
    const store = memorySessions();
    let writable = true;
    const sessions: SessionStore = {
      ...store,
      probeWritable: async () =>
        writable
          ? { writable: true }
          : {
              writable: false,
              reason: "the state directory /s cannot be written: no space left on device (ENOSPC)",
            },
    };
    const { call } = await connect({ source: fakeSource([]), tools: [counted], toolSearch: false, sessions });
    expect((await call("notes_add", { text: "a" })).text).toBe("ran");
    writable = false;
    const refused = await call("notes_add", { text: "b" });
    expect(refused).toEqual({
      isError: true,
      text: expect.stringContaining(
        "Refused before the tool ran: the session log cannot be written: the state directory /s cannot be written: no space left on device (ENOSPC). Free space there",
      ),
    });
    expect(runs).toBe(1);
    writable = true;
    expect((await call("notes_add", { text: "c" })).text).toBe("ran");
    expect(runs).toBe(2);
    expect(store.events.filter((event) => event.type === "run-summary")).toHaveLength(2);
  });

  it("refuses the first call when the session header cannot be written, and leaves nothing run", async () => {
    let runs = 0;
    const counted: ToolDefinition = {
      ...plugin,
      execute: async () => {
        runs += 1;
        return { content: [{ type: "text", text: "ran" }] };
      },
    };
    const sessions: SessionStore = {
      ...memorySessions(),
      append: async () => {
        throw new ToolsiftError(
          "STORAGE_UNAVAILABLE",
          "The session log cannot be written in the state directory /s: read-only file system (EROFS).",
        );
      },
    };
    const { call } = await connect({ source: fakeSource([]), tools: [counted], toolSearch: false, sessions });
    const refused = await call("notes_add", { text: "a" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Refused before the tool ran: The session log cannot be written");
    expect(refused.text).toContain("read-only file system (EROFS)");
    expect(runs).toBe(0);
  });

  it("answers an unknown tool name with how to recover, as an error result", async () => {
    const { call } = await connect({ source: fakeSource([]) });
    const answer = await call("create_lead", {});
    expect(answer).toEqual({
      isError: true,
      text: 'Unknown tool "create_lead". Find tools with tool_search, then run them with tool_call { id, args }.',
    });
  });

  it("keeps tools the policy denies out of search and calls", async () => {
    const source = fakeSource([upstream("crm", "create_lead"), upstream("secret", "dump_database")]);
    const { call } = await connect({ source, policy: { global: { deny: ["mcp:secret"] } } });
    const found = await call("tool_search", { query: "dump database" });
    // Nothing found; the no-match note names only the model's own words, never the denied tool.
    expect(JSON.parse(found.text).results[0].candidates).toEqual([]);
    expect(found.text).not.toContain("dump_database");
    expect(found.text).not.toContain("secret");
    const denied = await call("tool_call", { id: "mcp:secret:dump_database", args: {} });
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain("Unknown tool id: mcp:secret:dump_database.");
  });

  it("runs approvals for every call: a denial reaches the client as blocked", async () => {
    const source = fakeSource([upstream("crm", "close_deal")]);
    const { call } = await connect({
      source,
      approvals: { requestApproval: async () => ({ approved: false, reason: "operator said no" }) },
    });
    const answer = await call("tool_call", { id: "mcp:crm:close_deal", args: {} });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain("operator said no");
  });

  it("logs how a call that waited for approval was settled (who, the note redacted, when) under its run", async () => {
    const broker = createApprovalBroker({ require: ["close_deal"], timeoutMs: 60_000 });
    const source = fakeSource([upstream("crm", "close_deal")]);
    // A secret the config knows: redacted by the session log, as the runner's lines are (the file store
    // redacts secret shapes on top).
    const { call, sessions } = await connect({ source, approvals: broker, secrets: ["hunter2-secret"] });
    const answer = call("tool_call", { id: "mcp:crm:close_deal", args: { id: "D1" } });
    let pending = await broker.pending();
    for (let round = 0; round < 500 && pending.length === 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      pending = await broker.pending();
    }
    const [request] = pending;
    if (request === undefined) throw new Error("the call never asked for approval");
    expect(await broker.decide(request.id, "allow", "password=hunter2-secret ok", "alice")).toBe(true);
    expect((await answer).text).toContain('crm/close_deal {\\"id\\":\\"D1\\"}');

    const approvals = sessions.events.filter((event) => event.type === "approval");
    const summary = sessions.events.find((event) => event.type === "run-summary");
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      type: "approval",
      runId: summary?.runId,
      callId: expect.stringMatching(/^mcp-/u),
      approvalId: request.id,
      toolId: "mcp:crm:close_deal",
      name: "close_deal",
      verdict: "allow",
      decidedBy: "alice",
      requestedAt: request.createdAt,
      decidedAt: expect.any(String),
    });
    expect(approvals[0]?.note).toBe("password=[REDACTED] ok");
    expect(JSON.stringify(approvals[0])).not.toContain("hunter2-secret");
    broker.close();
  });

  it("sends no list_changed when a change stays behind the controls", async () => {
    const source = fakeSource([upstream("crm", "create_lead")]);
    const { call, names, notices } = await connect({ source });
    source.change([upstream("crm", "create_lead"), upstream("crm", "merge_leads")]);
    expect((await call("tool_search", { query: "merge leads" })).text).toContain("mcp:crm:merge_leads");
    expect(await names()).toHaveLength(3);
    expect(notices).toEqual([]);
  });

  describe("with tools.toolSearch false", () => {
    it("lists every tool directly, MCP tools as <server>__<tool>, and notifies when the list changes", async () => {
      const source = fakeSource([upstream("crm", "create_lead")]);
      const { call, names, notices } = await connect({ source, tools: [plugin], toolSearch: false });
      expect(await names()).toEqual(["notes_add", "crm__create_lead"]);
      const answer = await call("crm__create_lead", { id: "L2" });
      expect(answer.text).toContain('crm/create_lead {"id":"L2"}');
      expect(answer.text).toContain("EXTERNAL_UNTRUSTED_CONTENT");
      source.change([upstream("crm", "create_lead"), upstream("crm", "merge_leads")]);
      await expect.poll(() => notices).toEqual(["list_changed"]);
      expect(await names()).toEqual(["notes_add", "crm__create_lead", "crm__merge_leads"]);
      // The same list again: nothing the client sees changed, so no second notice.
      source.change([upstream("crm", "create_lead"), upstream("crm", "merge_leads")]);
      expect(await names()).toHaveLength(3);
      expect(notices).toEqual(["list_changed"]);
    });

    it("judges renamed MCP tools by their own name under an allow list", async () => {
      const source = fakeSource([upstream("crm", "create_lead"), upstream("crm", "close_deal")]);
      const { call, names } = await connect({
        source,
        toolSearch: false,
        policy: { global: { allow: ["create_lead"] } },
      });
      expect(await names()).toEqual(["crm__create_lead"]);
      const answer = await call("crm__create_lead", { id: "L3" });
      expect(answer.isError).toBe(false);
      expect(answer.text).toContain('crm/create_lead {"id":"L3"}');
    });
  });

  it("in directory mode, runs a plugin tool called by its exact hidden name", async () => {
    const { call, names } = await connect({
      source: fakeSource([]),
      tools: [plugin],
      toolSearch: { mode: "directory" },
    });
    expect(await names()).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect((await call("notes_add", { text: "hi" })).text).toBe('NOTE {"text":"hi"}');
    expect((await call("notes_ad", { text: "hi" })).isError).toBe(true);
  });
});
