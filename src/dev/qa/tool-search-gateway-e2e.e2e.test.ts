import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { formatScenarioReport, runGatewayScenario } from "./index.js";
import { CLI_ENTRY } from "./start-gateway-process.js";
import type { ScenarioReport } from "./types.js";

describe("QA scenario tool-search-gateway-e2e (real gateway processes, mock provider over HTTP)", () => {
  let report: ScenarioReport;

  beforeAll(async () => {
    expect(existsSync(CLI_ENTRY), "the scenario drives the built CLI: run `npm run build` first").toBe(true);
    report = await runGatewayScenario();
  }, 180_000);

  it("passes every assertion of every lane", () => {
    expect(report.passed, formatScenarioReport(report)).toBe(true);
    expect(report.lanes.map((lane) => lane.lane)).toEqual([
      "direct",
      "tools",
      "directory",
      "default",
      "batch",
      "mcp",
      "responses-stream",
      "chat-stream",
      "anthropic-direct",
      "anthropic-tools",
    ]);
  });

  it("executes the target in every lane", () => {
    for (const lane of report.lanes) expect(lane.answer).toContain("FAKE_PLUGIN_OK fake_plugin_tool_17");
  });

  it("declares fewer tools and sends fewer request bytes in every search lane than in the direct lane", () => {
    const direct = report.lanes.find((lane) => lane.lane === "direct");
    // 36 plugin schemas plus the core tools, which every lane declares directly.
    expect(direct?.declaredTools).toBeGreaterThanOrEqual(36);
    for (const lane of report.lanes.filter(
      // The Anthropic lanes are compared with anthropic-direct (below): their bodies have another shape.
      (item) => item.lane !== "direct" && !item.lane.startsWith("anthropic"),
    )) {
      expect(lane.declaredTools).toBeLessThan(direct?.declaredTools ?? 0);
      expect(lane.requestBytes).toBeLessThan(direct?.requestBytes ?? 0);
      expect(lane.searches).toBeGreaterThan(0);
    }
  });

  it("resolves both batch targets with exactly one tool_search", () => {
    const batch = report.lanes.find((lane) => lane.lane === "batch");
    expect(batch?.searches).toBe(1);
    expect(batch?.calls).toBe(2);
    expect(batch?.answer).toContain("FAKE_PLUGIN_OK fake_plugin_tool_29");
  });

  it("reaches the same fake tools served by a real MCP server through search, describe and call", () => {
    const mcp = report.lanes.find((lane) => lane.lane === "mcp");
    const direct = report.lanes.find((lane) => lane.lane === "direct");
    expect(mcp?.answer).toContain("FAKE_PLUGIN_OK fake_plugin_tool_17");
    expect(mcp?.searches).toBe(1);
    expect(mcp?.describes).toBe(1);
    expect(mcp?.requestBytes).toBeLessThan(direct?.requestBytes ?? 0);
  });

  it.each([
    ["responses-stream", "response.completed"],
    ["chat-stream", "[DONE]"],
  ])(
    "streams the %s lane's answer in several deltas, the first before the end, ending with %s",
    (name, terminal) => {
      const lane = report.lanes.find((item) => item.lane === name);
      expect(lane?.failures).toEqual([]);
      expect(lane?.answer).toContain("FAKE_PLUGIN_OK fake_plugin_tool_17");
      expect(lane?.searches).toBe(1);
      expect(lane?.calls).toBe(1);
      expect(lane?.stream?.terminal).toBe(terminal);
      expect(lane?.stream?.textDeltas).toBeGreaterThanOrEqual(2);
      expect(lane?.stream?.firstTextMs).toBeLessThan(lane?.stream?.lastFrameMs ?? 0);
    },
  );

  it("runs the Anthropic lanes through the anthropic-messages provider with a cached, identical prefix", () => {
    const direct = report.lanes.find((lane) => lane.lane === "anthropic-direct");
    const tools = report.lanes.find((lane) => lane.lane === "anthropic-tools");
    for (const lane of [direct, tools]) {
      expect(lane?.failures).toEqual([]);
      expect(lane?.answer).toContain("FAKE_PLUGIN_OK fake_plugin_tool_17");
      // Every request after a lane's first read the prefix from the (mock's) prompt cache.
      expect(lane?.cache?.readTokens).toBeGreaterThan(0);
      expect(lane?.cache?.prefixBytes).toBeGreaterThan(0);
    }
    expect(direct?.declaredTools).toBeGreaterThanOrEqual(36);
    expect(tools?.declaredTools).toBeLessThan(direct?.declaredTools ?? 0);
    expect(tools?.requestBytes).toBeLessThan(direct?.requestBytes ?? 0);
    expect(tools?.cache?.prefixBytes).toBeLessThan(direct?.cache?.prefixBytes ?? 0);
    expect(tools?.searches).toBe(1);
    expect(formatScenarioReport(report)).toMatch(/cached prefix bytes/u);
  });
});
