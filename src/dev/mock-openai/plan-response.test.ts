import { describe, expect, it } from "vitest";
import type { ConversationItem, ProviderTool } from "../../runtime/providers/index.js";
import { planResponse } from "./plan-response.js";

const CONTROLS: ProviderTool[] = ["tool_search", "tool_describe", "tool_call"].map((name) => ({
  name,
  description: name,
  parameters: { type: "object" },
}));

const strictTool = (name: string): ProviderTool => ({
  name,
  description: "A QA tool.",
  parameters: {
    type: "object",
    properties: { marker: { type: "string" }, note: { type: "string" } },
    required: ["marker"],
    additionalProperties: false,
  },
});

const candidate = (name: string, input = "{ marker: string }") => ({
  id: `native:fake:${name}`,
  source: "native",
  owner: "fake",
  name,
  description: "A QA tool.",
  input,
});

const envelope = (name: string, text: string, isError?: boolean) =>
  JSON.stringify(
    {
      tool: { id: `native:fake:${name}`, name, source: "native" },
      result: {
        content: [{ type: "text", text }],
        details: { status: "ok" },
        ...(isError === undefined ? {} : { isError }),
      },
    },
    null,
    2,
  );

const call = (callId: string, name: string, args: unknown): ConversationItem => ({
  type: "function_call",
  callId,
  name,
  arguments: JSON.stringify(args),
});
const output = (callId: string, text: string): ConversationItem => ({
  type: "function_call_output",
  callId,
  output: text,
});
const say = (text: string): ConversationItem[] => [{ type: "message", role: "assistant", text }];

describe("planResponse: no target", () => {
  it("echoes the user text", () => {
    expect(planResponse({ userText: "  hello there ", items: [], tools: CONTROLS })).toEqual(
      say("mock: hello there"),
    );
  });

  it("does not treat and= alone as a request", () => {
    expect(planResponse({ userText: "and=foo", items: [], tools: CONTROLS })).toEqual(say("mock: and=foo"));
  });
});

describe("planResponse: targets declared directly", () => {
  const tools = [strictTool("fake_plugin_tool_17"), strictTool("fake_plugin_tool_29")];

  it("calls the target with arguments built from its schema", () => {
    expect(
      planResponse({ userText: "tool search qa check target=fake_plugin_tool_17.", items: [], tools }),
    ).toEqual([call("call_1", "fake_plugin_tool_17", { marker: "qa" })]);
  });

  it("calls both targets in one response", () => {
    const plan = planResponse({
      userText: "target=fake_plugin_tool_17 and=fake_plugin_tool_29",
      items: [],
      tools,
    });
    expect(plan).toEqual([
      call("call_1", "fake_plugin_tool_17", { marker: "qa" }),
      call("call_2", "fake_plugin_tool_29", { marker: "qa" }),
    ]);
  });

  it("answers with the outputs once every target has run", () => {
    const items = [
      call("c1", "fake_plugin_tool_17", { marker: "qa" }),
      call("c2", "fake_plugin_tool_29", { marker: "qa" }),
      output("c1", 'FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"}'),
      output("c2", 'FAKE_PLUGIN_OK fake_plugin_tool_29 {"marker":"qa"}'),
    ];
    expect(
      planResponse({ userText: "target=fake_plugin_tool_17 and=fake_plugin_tool_29", items, tools }),
    ).toEqual(
      say(
        'Done. FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"} FAKE_PLUGIN_OK fake_plugin_tool_29 {"marker":"qa"}',
      ),
    );
  });

  it("prefers the direct call even when the controls are declared too", () => {
    const plan = planResponse({
      userText: "target=fake_plugin_tool_17",
      items: [],
      tools: [...CONTROLS, ...tools],
    });
    expect(plan).toEqual([call("call_1", "fake_plugin_tool_17", { marker: "qa" })]);
  });

  it("answers with the error of a failed direct call", () => {
    const items = [
      call("c1", "fake_plugin_tool_17", { marker: "qa" }),
      output("c1", JSON.stringify({ error: { code: "BLOCKED", message: "blocked by policy" } })),
    ];
    expect(planResponse({ userText: "target=fake_plugin_tool_17", items, tools })).toEqual(
      say("mock: fake_plugin_tool_17 failed: blocked by policy"),
    );
  });
});

describe("planResponse: through tool_search", () => {
  it("searches once for one target", () => {
    expect(planResponse({ userText: "target=fake_plugin_tool_17", items: [], tools: CONTROLS })).toEqual([
      call("call_1", "tool_search", { query: "fake_plugin_tool_17", limit: 1 }),
    ]);
  });

  it("searches once with a batch for two targets", () => {
    const plan = planResponse({
      userText: "tool search qa check target=fake_plugin_tool_17 and=fake_plugin_tool_29",
      items: [],
      tools: CONTROLS,
    });
    expect(plan).toEqual([
      call("call_1", "tool_search", {
        queries: [
          { query: "fake_plugin_tool_17", limit: 1 },
          { query: "fake_plugin_tool_29", limit: 1 },
        ],
      }),
    ]);
  });

  it("calls the best candidate through tool_call with arguments from its signature", () => {
    const items = [
      call("c1", "tool_search", { query: "fake_plugin_tool_17", limit: 1 }),
      output("c1", JSON.stringify([candidate("fake_plugin_tool_17"), candidate("other")], null, 2)),
    ];
    expect(planResponse({ userText: "target=fake_plugin_tool_17", items, tools: CONTROLS })).toEqual([
      call("call_2", "tool_call", { id: "native:fake:fake_plugin_tool_17", args: { marker: "qa" } }),
    ]);
  });

  it("calls the best candidate of each batch group in one response", () => {
    const batch = {
      results: [
        { query: "fake_plugin_tool_17", candidates: [candidate("fake_plugin_tool_17")] },
        {
          query: "fake_plugin_tool_29",
          candidates: [candidate("fake_plugin_tool_29", "{ marker: string; n?: number }")],
        },
      ],
    };
    const items = [call("c1", "tool_search", {}), output("c1", JSON.stringify(batch))];
    const plan = planResponse({
      userText: "target=fake_plugin_tool_17 and=fake_plugin_tool_29",
      items,
      tools: CONTROLS,
    });
    expect(plan).toEqual([
      call("call_2", "tool_call", { id: "native:fake:fake_plugin_tool_17", args: { marker: "qa" } }),
      call("call_3", "tool_call", { id: "native:fake:fake_plugin_tool_29", args: { marker: "qa" } }),
    ]);
  });

  it("answers with the text blocks of every tool_call envelope", () => {
    const batch = {
      results: [
        { query: "fake_plugin_tool_17", candidates: [candidate("fake_plugin_tool_17")] },
        { query: "fake_plugin_tool_29", candidates: [candidate("fake_plugin_tool_29")] },
      ],
    };
    const items = [
      call("c1", "tool_search", {}),
      output("c1", JSON.stringify(batch)),
      call("c2", "tool_call", { id: "native:fake:fake_plugin_tool_17", args: { marker: "qa" } }),
      call("c3", "tool_call", { id: "native:fake:fake_plugin_tool_29", args: { marker: "qa" } }),
      output("c3", envelope("fake_plugin_tool_29", 'FAKE_PLUGIN_OK fake_plugin_tool_29 {"marker":"qa"}')),
      output("c2", envelope("fake_plugin_tool_17", 'FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"}')),
    ];
    expect(
      planResponse({
        userText: "target=fake_plugin_tool_17 and=fake_plugin_tool_29",
        items,
        tools: CONTROLS,
      }),
    ).toEqual(
      say(
        'Done. FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"} FAKE_PLUGIN_OK fake_plugin_tool_29 {"marker":"qa"}',
      ),
    );
  });

  it("describes a candidate whose input is unknown, then calls it with arguments from its schema", () => {
    const mcp = { ...candidate("list_events", "unknown"), id: "mcp:calendar:list_events", source: "mcp" };
    const searched = [call("c1", "tool_search", {}), output("c1", JSON.stringify([mcp]))];
    expect(planResponse({ userText: "target=list_events", items: searched, tools: CONTROLS })).toEqual([
      call("call_2", "tool_describe", { id: "mcp:calendar:list_events" }),
    ]);
    const described = [
      ...searched,
      call("c2", "tool_describe", { id: "mcp:calendar:list_events" }),
      output(
        "c2",
        JSON.stringify({
          ...mcp,
          parameters: {
            type: "object",
            properties: { day: { type: "string", enum: ["mon", "tue"] } },
            required: ["day"],
          },
        }),
      ),
    ];
    expect(planResponse({ userText: "target=list_events", items: described, tools: CONTROLS })).toEqual([
      call("call_3", "tool_call", { id: "mcp:calendar:list_events", args: { day: "mon" } }),
    ]);
  });

  it("calls an unknown-input candidate with {} when tool_describe is not declared", () => {
    const tools = CONTROLS.filter((tool) => tool.name !== "tool_describe");
    const items = [call("c1", "tool_search", {}), output("c1", JSON.stringify([candidate("x", "unknown")]))];
    expect(planResponse({ userText: "target=x", items, tools })).toEqual([
      call("call_2", "tool_call", { id: "native:fake:x", args: {} }),
    ]);
  });
});

describe("planResponse: targets it cannot reach", () => {
  it("says so when the target is not declared and tool_search is not available", () => {
    expect(planResponse({ userText: "target=ghost", items: [], tools: [strictTool("other")] })).toEqual(
      say("mock: cannot reach ghost: it is not declared and tool_search is not available."),
    );
  });

  it("says so when the search found no candidate", () => {
    const items = [call("c1", "tool_search", {}), output("c1", "[]")];
    expect(planResponse({ userText: "target=ghost", items, tools: CONTROLS })).toEqual(
      say("mock: tool_search found no tool for ghost."),
    );
  });

  it("says so when one group of a batch is empty", () => {
    const batch = {
      results: [
        { query: "a", candidates: [candidate("a")] },
        { query: "ghost", candidates: [] },
      ],
    };
    const items = [call("c1", "tool_search", {}), output("c1", JSON.stringify(batch))];
    expect(planResponse({ userText: "target=a and=ghost", items, tools: CONTROLS })).toEqual(
      say("mock: tool_search found no tool for ghost."),
    );
  });

  it("says so when tool_call is not declared", () => {
    const tools = CONTROLS.filter((tool) => tool.name !== "tool_call");
    const items = [call("c1", "tool_search", {}), output("c1", JSON.stringify([candidate("a")]))];
    expect(planResponse({ userText: "target=a", items, tools })).toEqual(
      say("mock: cannot call a: tool_call is not declared."),
    );
  });
});

describe("planResponse: error outputs end the turn", () => {
  it("answers with a tool_search error text", () => {
    const items = [call("c1", "tool_search", {}), output("c1", "a batch allows at most 16 queries; got 17.")];
    expect(planResponse({ userText: "target=a", items, tools: CONTROLS })).toEqual(
      say("mock: tool_search failed: a batch allows at most 16 queries; got 17."),
    );
  });

  it("answers with a tool_call error text", () => {
    const items = [
      call("c1", "tool_search", {}),
      output("c1", JSON.stringify([candidate("a")])),
      call("c2", "tool_call", { id: "native:fake:a", args: { marker: "qa" } }),
      output("c2", "Unknown tool id: native:fake:a. Did you mean: b?"),
    ];
    expect(planResponse({ userText: "target=a", items, tools: CONTROLS })).toEqual(
      say("mock: tool_call failed: Unknown tool id: native:fake:a. Did you mean: b?"),
    );
  });

  it("answers with the text of a target that failed inside its envelope", () => {
    const items = [
      call("c1", "tool_search", {}),
      output("c1", JSON.stringify([candidate("a")])),
      call("c2", "tool_call", { id: "native:fake:a", args: { marker: "qa" } }),
      output("c2", envelope("a", "disk full", true)),
    ];
    expect(planResponse({ userText: "target=a", items, tools: CONTROLS })).toEqual(
      say("mock: tool_call failed: disk full"),
    );
  });

  it("answers with a tool_describe error text", () => {
    const items = [
      call("c1", "tool_search", {}),
      output("c1", JSON.stringify([candidate("a", "unknown")])),
      call("c2", "tool_describe", { id: "native:fake:a" }),
      output("c2", "Tool Search catalog is unavailable for this run."),
    ];
    expect(planResponse({ userText: "target=a", items, tools: CONTROLS })).toEqual(
      say("mock: tool_describe failed: Tool Search catalog is unavailable for this run."),
    );
  });
});

describe("planResponse: termination", () => {
  /** Plays the runner: answers every call with `answer(call)` until the planner replies with text. */
  function play(userText: string, tools: ProviderTool[], answer: (call: ConversationItem) => string): number {
    const items: ConversationItem[] = [];
    for (let step = 1; step <= 10; step += 1) {
      const plan = planResponse({ userText, items, tools });
      expect(planResponse({ userText, items, tools })).toEqual(plan);
      if (plan.every((item) => item.type === "message")) return step;
      for (const item of plan) {
        items.push({
          ...item,
          callId: item.type === "function_call" ? `${step}-${item.callId}` : "",
        } as ConversationItem);
        if (item.type === "function_call") items.push(output(`${step}-${item.callId}`, answer(item)));
      }
    }
    return Number.POSITIVE_INFINITY;
  }

  it("ends within four responses on every path", () => {
    const searchAnswer = (item: ConversationItem) =>
      item.type === "function_call" && item.name === "tool_search"
        ? JSON.stringify([candidate("a", "unknown")])
        : item.type === "function_call" && item.name === "tool_describe"
          ? JSON.stringify({ ...candidate("a", "unknown"), parameters: {} })
          : envelope("a", "ok");
    expect(play("target=a", CONTROLS, searchAnswer)).toBe(4);
    expect(play("target=a", [strictTool("a")], () => "ok")).toBe(2);
    expect(play("target=a", CONTROLS, () => "not json at all")).toBe(2);
    expect(play("target=a and=b", CONTROLS, () => "[]")).toBe(2);
  });
});
