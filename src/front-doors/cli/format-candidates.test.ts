import { describe, expect, it } from "vitest";
import type { SearchCandidate } from "../../index.js";
import { formatCandidates } from "./format-candidates.js";

const weather: SearchCandidate = {
  id: "native:weather:get_weather_forecast",
  source: "native",
  owner: "weather",
  name: "get_weather_forecast",
  description: "Get the weather forecast\nfor a city.",
  input: "{ city: string; days?: number /* integer, >= 1, <= 14 */ }",
  output: "{ days: Array<{ date: string; high: number; low: number }> }",
};
const calendar: SearchCandidate = {
  id: "mcp:calendar:create_event",
  source: "mcp",
  owner: "calendar",
  name: "create_event",
  description: "",
  input: "unknown",
  mcp: { server: "calendar", tool: "create_event" },
};

describe("formatCandidates", () => {
  it("renders rank, id, signatures and a one-line description", () => {
    expect(formatCandidates([weather, calendar])).toBe(
      [
        "1. native:weather:get_weather_forecast",
        "   input:  { city: string; days?: number /* integer, >= 1, <= 14 */ }",
        "   output: { days: Array<{ date: string; high: number; low: number }> }",
        "   Get the weather forecast for a city.",
        "2. mcp:calendar:create_event",
        "   input:  unknown",
        "   No description.",
        "",
      ].join("\n"),
    );
  });

  it("says when nothing matches", () => {
    expect(formatCandidates([])).toBe("No tools match.\n");
  });

  it("cuts long descriptions to one line of 180 characters", () => {
    const text = formatCandidates([
      { ...calendar, description: `${"word ".repeat(100)}\n\nsecond paragraph` },
    ]);
    const descriptionLine = text.split("\n")[2] ?? "";
    expect(descriptionLine.startsWith("   word word")).toBe(true);
    expect(descriptionLine.endsWith("...")).toBe(true);
    expect(descriptionLine.length).toBe(3 + 180);
    expect(text.split("\n")).toHaveLength(4);
  });

  it("replaces terminal control characters from hostile metadata", () => {
    const text = formatCandidates([
      {
        ...calendar,
        id: "mcp:x:\u001b[2Jwipe",
        description: "ok\u001b]0;title\u0007 \u009b31m red\u2028next",
      },
    ]);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028]/u);
    expect(text).toBe("1. mcp:x: [2Jwipe\n   input:  unknown\n   ok ]0;title 31m red next\n");
  });
});
