import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../providers/index.js";
import { replayConversation } from "./replay-conversation.js";
import type { SessionEvent } from "./types.js";

const AT = "2026-01-01T00:00:00.000Z";

function user(text: string): SessionEvent {
  return { type: "user-input", at: AT, runId: "r1", items: [{ type: "message", role: "user", text }] };
}

function assistant(items: ConversationItem[]): SessionEvent {
  return { type: "assistant-output", at: AT, runId: "r1", items };
}

function result(callId: string, name: string, output: string): SessionEvent {
  return { type: "tool-result", at: AT, runId: "r1", callId, name, isError: false, output };
}

const call = (callId: string, name: string, args = "{}"): ConversationItem => ({
  type: "function_call",
  callId,
  name,
  arguments: args,
});

describe("replayConversation", () => {
  it("marks the output of a failed tool (a tool-result with isError, or a logged item) as isError", () => {
    const failed: SessionEvent = { ...result("c1", "a", "boom"), isError: true } as SessionEvent;
    const replayed = replayConversation([
      user("go"),
      assistant([call("c1", "a"), call("c2", "b")]),
      failed,
      {
        type: "user-input",
        at: AT,
        runId: "r2",
        items: [{ type: "function_call_output", callId: "c2", output: "no", isError: true }],
      },
    ]);
    expect(replayed.slice(3)).toEqual([
      { type: "function_call_output", callId: "c1", output: "boom", isError: true },
      { type: "function_call_output", callId: "c2", output: "no", isError: true },
    ]);
    expect(
      replayConversation([user("go"), assistant([call("c1", "a")]), result("c1", "a", "ok")])[2],
    ).toEqual({
      type: "function_call_output",
      callId: "c1",
      output: "ok",
    });
  });

  it("rebuilds the conversation in order and skips display-only and summary events", () => {
    const events: SessionEvent[] = [
      { type: "session", at: AT, version: 1, agentId: "main", sessionKey: "s" },
      user("weather in Paris?"),
      {
        type: "model-request",
        at: AT,
        runId: "r1",
        provider: "openai",
        model: "m",
        declaredTools: ["tool_search", "tool_describe", "tool_call"],
        declaredToolCount: 3,
        systemPromptChars: 10,
        requestBytes: 100,
      },
      assistant([call("c1", "tool_search", '{"query":"weather"}')]),
      result("c1", "tool_search", "candidates: weather_now"),
      assistant([
        call("c2", "tool_call", '{"id":"native:weather:weather_now","arguments":{"city":"Paris"}}'),
      ]),
      result("c2", "tool_call", "21C"),
      {
        type: "target-activity",
        at: AT,
        runId: "r1",
        parentCallId: "c2",
        toolId: "native:weather:weather_now",
        name: "weather_now",
        source: "native",
        arguments: { city: "Paris" },
        result: "21C",
        isError: false,
      },
      assistant([{ type: "message", role: "assistant", text: "It is 21C." }]),
      { type: "run-summary", at: AT, runId: "r1", status: "completed", turns: 3, durationMs: 5 },
    ];
    expect(replayConversation(events)).toEqual([
      { type: "message", role: "user", text: "weather in Paris?" },
      call("c1", "tool_search", '{"query":"weather"}'),
      { type: "function_call_output", callId: "c1", output: "candidates: weather_now" },
      call("c2", "tool_call", '{"id":"native:weather:weather_now","arguments":{"city":"Paris"}}'),
      { type: "function_call_output", callId: "c2", output: "21C" },
      { type: "message", role: "assistant", text: "It is 21C." },
    ]);
  });

  it("never turns target activity into a model turn (no call or output named after the target)", () => {
    const events: SessionEvent[] = [
      user("go"),
      assistant([call("c1", "tool_call")]),
      result("c1", "tool_call", "ok"),
      {
        type: "target-activity",
        at: AT,
        parentCallId: "c1",
        toolId: "mcp:cal:list_events",
        name: "list_events",
        source: "mcp",
        arguments: {},
        result: "ok",
        isError: false,
      },
    ];
    const replayed = replayConversation(events);
    expect(replayed.some((item) => item.type === "function_call" && item.name === "list_events")).toBe(false);
    expect(replayed.filter((item) => item.type === "function_call_output")).toHaveLength(1);
  });

  it("keeps client function_call_output items sent as user input", () => {
    const events: SessionEvent[] = [
      user("open the file"),
      assistant([call("c9", "client_pick_file")]),
      {
        type: "user-input",
        at: AT,
        runId: "r2",
        items: [{ type: "function_call_output", callId: "c9", output: "a.txt" }],
      },
    ];
    expect(replayConversation(events)).toEqual([
      { type: "message", role: "user", text: "open the file" },
      call("c9", "client_pick_file"),
      { type: "function_call_output", callId: "c9", output: "a.txt" },
    ]);
  });

  it("keeps a trailing unanswered call (the next request may answer it)", () => {
    const events: SessionEvent[] = [user("pick"), assistant([call("c1", "client_pick")])];
    expect(replayConversation(events)).toEqual([
      { type: "message", role: "user", text: "pick" },
      call("c1", "client_pick"),
    ]);
  });

  it("drops pairs a provider would reject: orphan outputs, repeated outputs, abandoned calls", () => {
    const events: SessionEvent[] = [
      user("one"),
      result("ghost", "tool_search", "no call made this"),
      assistant([call("c1", "tool_search"), call("c2", "tool_describe")]),
      result("c1", "tool_search", "first"),
      result("c1", "tool_search", "again"),
      user("two"),
    ];
    expect(replayConversation(events)).toEqual([
      { type: "message", role: "user", text: "one" },
      call("c1", "tool_search"),
      { type: "function_call_output", callId: "c1", output: "first" },
      { type: "message", role: "user", text: "two" },
    ]);
  });

  it("drops malformed items and copies only the item fields", () => {
    const events = [
      {
        type: "user-input",
        at: AT,
        items: [
          { type: "message", role: "system", text: "sneaky" },
          { type: "message", role: "user", text: 5 },
          null,
          { type: "message", role: "user", text: "fine", extra: "dropped" },
        ],
      },
      { type: "assistant-output", at: AT, items: "not a list" },
    ] as unknown as SessionEvent[];
    expect(replayConversation(events)).toEqual([{ type: "message", role: "user", text: "fine" }]);
  });
});
