import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { formatScenarioReport, runGatewayScenario, type ScenarioReport } from "./index.js";
import { CLI_ENTRY } from "./start-gateway-process.js";

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
    ]);
  });

  it("executes the target in every lane", () => {
    for (const lane of report.lanes) expect(lane.answer).toContain("FAKE_PLUGIN_OK fake_plugin_tool_17");
  });

  it("declares fewer tools and sends fewer request bytes in every search lane than in the direct lane", () => {
    const direct = report.lanes.find((lane) => lane.lane === "direct");
    // 36 plugin schemas plus the core tools, which every lane declares directly.
    expect(direct?.declaredTools).toBeGreaterThanOrEqual(36);
    for (const lane of report.lanes.filter((item) => item.lane !== "direct")) {
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
});
