import { describe, expect, it } from "vitest";
import { summarizeSession } from "./summarize-session.js";
import type { SessionEvent } from "./types.js";

const AT = "2026-01-01T00:00:00.000Z";

function request(runId: string, declaredTools: string[]): SessionEvent {
  return {
    type: "model-request",
    at: AT,
    runId,
    provider: "mock",
    model: "m",
    declaredTools,
    declaredToolCount: declaredTools.length,
    systemPromptChars: 100,
    requestBytes: 1000,
  };
}

function result(
  runId: string,
  name: string,
  extra: Partial<{ toolId: string; source: "native" | "mcp" | "client" }> = {},
) {
  return {
    type: "tool-result",
    at: AT,
    runId,
    callId: `${runId}-${name}`,
    name,
    isError: false,
    output: "x",
    ...extra,
  } as SessionEvent;
}

const CONTROLS = ["tool_search", "tool_describe", "tool_call"];

describe("summarizeSession", () => {
  const searchRun: SessionEvent[] = [
    { type: "session", at: AT, version: 1, agentId: "main", sessionKey: "s" },
    { type: "user-input", at: AT, runId: "r1", items: [{ type: "message", role: "user", text: "go" }] },
    request("r1", [...CONTROLS, "read"]),
    result("r1", "tool_search"),
    request("r1", [...CONTROLS, "read"]),
    result("r1", "tool_search"),
    result("r1", "tool_describe"),
    request("r1", [...CONTROLS, "read"]),
    result("r1", "tool_call", { toolId: "mcp:calendar:list_events", source: "mcp" }),
    {
      type: "target-activity",
      at: AT,
      runId: "r1",
      parentCallId: "r1-tool_call",
      toolId: "mcp:calendar:list_events",
      name: "list_events",
      source: "mcp",
      arguments: {},
      result: "ok",
      isError: false,
    },
    request("r1", [...CONTROLS, "read"]),
    { type: "run-summary", at: AT, runId: "r1", status: "completed", turns: 4, durationMs: 9 },
  ];

  it("answers the four questions for a Tool Search run", () => {
    const summary = summarizeSession(searchRun);
    expect(summary).toMatchObject({
      schemasDeclaredUpFront: 4,
      declaredToolsUpFront: [...CONTROLS, "read"],
      searches: 2,
      describes: 1,
      calls: 1,
      directCalls: 0,
      finalTool: { id: "mcp:calendar:list_events", name: "list_events", source: "mcp" },
      requests: 4,
      turns: 1,
    });
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]).toMatchObject({ runId: "r1", status: "completed", requests: 4 });
  });

  it("reports per run and takes the up-front schemas from the last run's first request", () => {
    const directRun: SessionEvent[] = [
      { type: "user-input", at: AT, runId: "r2", items: [{ type: "message", role: "user", text: "again" }] },
      request("r2", ["weather_now", "weather_week", "read"]),
      result("r2", "weather_now", { toolId: "native:weather:weather_now", source: "native" }),
      request("r2", ["weather_now"]),
    ];
    const summary = summarizeSession([...searchRun, ...directRun]);
    expect(summary.schemasDeclaredUpFront).toBe(3);
    expect(summary.runs.map((run) => run.schemasDeclaredUpFront)).toEqual([4, 3]);
    expect(summary).toMatchObject({
      searches: 2,
      describes: 1,
      calls: 1,
      directCalls: 1,
      requests: 6,
      turns: 2,
      finalTool: { id: "native:weather:weather_now", name: "weather_now", source: "native" },
    });
    expect(summary.runs[1]?.finalTool).toEqual({
      id: "native:weather:weather_now",
      name: "weather_now",
      source: "native",
    });
  });

  it("counts a plugin tool named like a control as a direct call when Tool Search is off", () => {
    const summary = summarizeSession([
      request("r1", ["tool_search"]),
      result("r1", "tool_search", { toolId: "native:odd:tool_search", source: "native" }),
    ]);
    expect(summary).toMatchObject({
      searches: 0,
      directCalls: 1,
      finalTool: { id: "native:odd:tool_search", name: "tool_search", source: "native" },
    });
  });

  it("answers for an empty log", () => {
    expect(summarizeSession([])).toEqual({
      schemasDeclaredUpFront: undefined,
      declaredToolsUpFront: [],
      searches: 0,
      describes: 0,
      calls: 0,
      directCalls: 0,
      finalTool: undefined,
      requests: 0,
      turns: 0,
      runs: [],
    });
  });

  it("ignores a target activity with an unknown source", () => {
    const summary = summarizeSession([
      {
        type: "target-activity",
        at: AT,
        runId: "r",
        parentCallId: "c",
        toolId: "x:y:z",
        name: "z",
        source: "elsewhere",
        arguments: {},
        result: "",
        isError: false,
      } as unknown as SessionEvent,
    ]);
    expect(summary.finalTool).toBeUndefined();
  });
});
