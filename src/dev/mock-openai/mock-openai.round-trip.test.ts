import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { createToolSearch } from "../../core/tool-search/index.js";
import {
  type ConversationItem,
  createProvider,
  type ProviderSettings,
} from "../../runtime/providers/index.js";
import { startMockOpenAI } from "./start-mock-openai.js";
import type { MockOpenAI } from "./types.js";

let mock: MockOpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
});

afterAll(async () => {
  await mock.close();
});

/** The QA scenario's plugin tools: a strict `{ marker: string }` schema, answering `FAKE_PLUGIN_OK <name> <input>`. */
function fakePluginTools(): ToolDefinition[] {
  return Array.from({ length: 36 }, (_unused, index) => {
    const name = `fake_plugin_tool_${String(index + 1).padStart(2, "0")}`;
    return {
      name,
      description: `Fake plugin tool number ${index + 1}. It checks the QA marker. It answers with a fixed receipt.`,
      parameters: {
        type: "object",
        properties: { marker: { type: "string" } },
        required: ["marker"],
        additionalProperties: false,
      },
      origin: { kind: "plugin", owner: "fake" },
      execute: async (args: unknown) => ({
        content: [{ type: "text", text: `FAKE_PLUGIN_OK ${name} ${JSON.stringify(args)}` }],
        details: { status: "ok", tool: name, input: args },
      }),
    } satisfies ToolDefinition;
  });
}

/** An MCP-sourced tool: its input signature is "unknown", so the planner describes it first. */
const calendarTool: ToolDefinition = {
  name: "list_events",
  description: "List the calendar events of one day.",
  parameters: {
    type: "object",
    properties: { day: { type: "string", enum: ["mon", "tue"] } },
    required: ["day"],
  },
  origin: { kind: "mcp", owner: "calendar" },
  execute: async (args: unknown) => ({ content: [{ type: "text", text: `EVENTS ${JSON.stringify(args)}` }] }),
};

type Transcript = { answer: string; calls: Array<{ name: string; args: unknown }>; requests: number };

/**
 * Plays the runner by hand: sends the conversation, runs each function call through the real Tool Search
 * controls, feeds their text back, until the mock answers. Checks requestBytes against the mock's log.
 */
async function converse(
  api: ProviderSettings["api"],
  userText: string,
  tools: ToolDefinition[],
): Promise<Transcript> {
  const search = createToolSearch({ tools, config: { mode: "tools" } });
  const modelTools = search.modelTools();
  const provider = createProvider("mock", { api, baseUrl: mock.baseUrl });
  const input: ConversationItem[] = [{ type: "message", role: "user", text: userText }];
  const calls: Transcript["calls"] = [];
  try {
    for (let request = 1; request <= 8; request += 1) {
      const response = await provider.complete({
        model: "mock",
        instructions: search.directory() ?? "",
        input,
        tools: modelTools.map((tool) => ({
          name: tool.name,
          description: tool.description ?? "",
          parameters: tool.parameters,
        })),
      });
      expect(response.requestBytes).toBe(mock.requests().at(-1)?.bytes);
      input.push(...response.output);
      const pending = response.output.filter((item) => item.type === "function_call");
      if (pending.length === 0) {
        const message = response.output.find((item) => item.type === "message");
        return { answer: message?.type === "message" ? message.text : "", calls, requests: request };
      }
      for (const item of pending) {
        const args = JSON.parse(item.arguments) as unknown;
        calls.push({ name: item.name, args });
        const control = modelTools.find((tool) => tool.name === item.name);
        const result = await control!.execute(args, { toolCallId: item.callId });
        const text = result.content
          .flatMap((block) => (block.type === "text" ? [block.text] : []))
          .join("\n");
        input.push({ type: "function_call_output", callId: item.callId, output: text });
      }
    }
    throw new Error("the mock did not answer within 8 requests");
  } finally {
    search.close();
  }
}

const APIS: Array<ProviderSettings["api"]> = ["openai-responses", "openai-chat", "anthropic-messages"];

describe.each<ProviderSettings["api"]>(APIS)("round trip over %s", (api) => {
  it("searches, calls the best candidate, and answers with its output", async () => {
    const transcript = await converse(
      api,
      "tool search qa check target=fake_plugin_tool_17",
      fakePluginTools(),
    );
    expect(transcript.calls).toEqual([
      { name: "tool_search", args: { query: "fake_plugin_tool_17", limit: 1 } },
      {
        name: "tool_call",
        args: { id: expect.stringContaining("fake_plugin_tool_17") as unknown, args: { marker: "qa" } },
      },
    ]);
    expect(transcript.answer).toBe('Done. FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"}');
    expect(transcript.requests).toBe(3);
  });

  it("makes one batch search for two targets, then both calls in one response", async () => {
    const transcript = await converse(
      api,
      "tool search qa check target=fake_plugin_tool_17 and=fake_plugin_tool_29",
      fakePluginTools(),
    );
    expect(transcript.calls.map((call) => call.name)).toEqual(["tool_search", "tool_call", "tool_call"]);
    expect(transcript.calls[0]?.args).toEqual({
      queries: [
        { query: "fake_plugin_tool_17", limit: 1 },
        { query: "fake_plugin_tool_29", limit: 1 },
      ],
    });
    expect(transcript.answer).toBe(
      'Done. FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"} FAKE_PLUGIN_OK fake_plugin_tool_29 {"marker":"qa"}',
    );
    expect(transcript.requests).toBe(3);
  });

  it("describes a tool whose input is unknown before calling it", async () => {
    const transcript = await converse(api, "what is on target=list_events", [
      ...fakePluginTools(),
      calendarTool,
    ]);
    expect(transcript.calls.map((call) => call.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect(transcript.calls[2]?.args).toMatchObject({ args: { day: "mon" } });
    expect(transcript.answer).toContain('EVENTS {"day":"mon"}');
    expect(transcript.requests).toBe(4);
  });

  it("reports a target the search cannot find", async () => {
    const transcript = await converse(api, "target=xyzzy", fakePluginTools());
    expect(transcript.calls.map((call) => call.name)).toEqual(["tool_search"]);
    expect(transcript.answer).toBe("mock: tool_search found no tool for xyzzy.");
  });
});
