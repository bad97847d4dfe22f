import { describe, expect, it } from "vitest";
import { type CatalogEntry, toCatalogEntry } from "../catalog/index.js";
import { echoTool, recordingSchema } from "./controls.test-support.js";
import { toCandidate } from "./to-candidate.js";

function entry(...args: Parameters<typeof echoTool>): CatalogEntry {
  const made = toCatalogEntry(echoTool(...args));
  if (!made) throw new Error("test tool was not cataloged");
  return made;
}

const forecastParameters = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 14 } },
  required: ["city"],
};
const forecastOutput = {
  type: "object",
  properties: { ok: { type: "boolean" } },
  required: ["ok"],
  additionalProperties: false,
};

describe("toCandidate", () => {
  it("describes a native entry with its compact signatures, never its schemas", () => {
    const candidate = toCandidate(
      entry("get_forecast", {
        label: "Forecast",
        description: "Daily forecast.",
        origin: { kind: "plugin", owner: "weather" },
        parameters: forecastParameters,
        outputSchema: forecastOutput,
      }),
      { compact: false },
    );
    expect(candidate).toEqual({
      id: "native:weather:get_forecast",
      source: "native",
      owner: "weather",
      name: "get_forecast",
      label: "Forecast",
      description: "Daily forecast.",
      input: "{ city: string; days?: number /* integer, >= 1, <= 14 */ }",
      output: "{ ok: boolean }",
    });
    expect(Object.keys(candidate)).toEqual([
      "id",
      "source",
      "owner",
      "name",
      "label",
      "description",
      "input",
      "output",
    ]);
    expect(candidate).not.toHaveProperty("parameters");
  });

  it("leaves out output when the output schema does not render completely, and label when empty", () => {
    const candidate = toCandidate(
      entry("open_output", { outputSchema: { type: "object", properties: { ok: { type: "boolean" } } } }),
      { compact: false },
    );
    expect(candidate).not.toHaveProperty("output");
    expect(candidate).not.toHaveProperty("label");
  });

  it("says input unknown for MCP and client entries and never reads their schemas", () => {
    const { schema, reads } = recordingSchema();
    const mcp = toCandidate(
      entry("create_event", { origin: { kind: "mcp", owner: "calendar" }, parameters: schema }),
      {
        compact: false,
      },
    );
    const client = toCandidate(entry("pick_file", { origin: { kind: "client" }, parameters: schema }), {
      compact: false,
    });
    expect(mcp.input).toBe("unknown");
    expect(mcp.mcp).toEqual({ server: "calendar", tool: "create_event" });
    expect(mcp).not.toHaveProperty("output");
    expect(client.input).toBe("unknown");
    expect(client).not.toHaveProperty("mcp");
    expect(reads).toEqual([]);
  });

  it("keeps full descriptions unless compact, where whitespace collapses and the text is cut to 180", () => {
    const description = `Line one.\n\n   Line    two. ${"x".repeat(400)}`;
    const native = entry("long", { description });
    expect(toCandidate(native, { compact: false }).description).toBe(description);
    const compact = toCandidate(native, { compact: true }).description;
    expect(compact).toHaveLength(180);
    expect(compact.startsWith("Line one. Line two. xxx")).toBe(true);
    expect(compact.endsWith("...")).toBe(true);
  });

  it("never splits a surrogate pair when cutting", () => {
    const compact = toCandidate(entry("emoji", { description: "😀".repeat(200) }), {
      compact: true,
    }).description;
    expect(compact.isWellFormed()).toBe(true);
    expect(compact.length).toBeLessThanOrEqual(180);
  });

  it("computes signatures once per entry", () => {
    let reads = 0;
    const parameters = {
      type: "object",
      get properties() {
        reads += 1;
        return { a: { type: "string" } };
      },
    };
    const native = entry("memo", { parameters: parameters as unknown as Record<string, unknown> });
    const first = toCandidate(native, { compact: false });
    const afterFirst = reads;
    const second = toCandidate(native, { compact: true });
    expect(afterFirst).toBeGreaterThan(0);
    expect(reads).toBe(afterFirst);
    expect(second.input).toBe(first.input);
  });

  it("falls back to unknown when a native schema is hostile", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
        ownKeys() {
          throw new Error("boom");
        },
      },
    );
    const candidate = toCandidate(entry("hostile", { parameters: hostile, outputSchema: hostile }), {
      compact: false,
    });
    expect(candidate.input).toBe("unknown");
    expect(candidate).not.toHaveProperty("output");
  });
});
