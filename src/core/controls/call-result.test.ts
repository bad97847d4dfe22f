import { describe, expect, it } from "vitest";
import type { ToolResult } from "../catalog/index.js";
import { toCallResult } from "./call-result.js";
import type { CallEnvelope, SearchCandidate } from "./types.js";

const tool: SearchCandidate = {
  id: "native:core:echo",
  source: "native",
  owner: "core",
  name: "echo",
  label: "Echo",
  description: "Echoes.",
  input: "{ text: string }",
};

function envelope(result: ToolResult, descriptor: SearchCandidate = tool): CallEnvelope {
  return { tool: descriptor, result };
}

describe("toCallResult", () => {
  it("shows the model only the tool's id, name and source and the result, as compact JSON", () => {
    const result: ToolResult = { content: [{ type: "text", text: "hi" }], details: { ok: true } };
    const control = toCallResult(envelope(result));
    expect(control.content).toEqual([
      {
        type: "text",
        text: JSON.stringify({
          tool: { id: "native:core:echo", name: "echo", source: "native" },
          result: { content: [{ type: "text", text: "hi" }], details: { ok: true } },
        }),
      },
    ]);
    expect(control.details).toEqual({ tool, result });
    expect(control).not.toHaveProperty("isError");
    expect(control).not.toHaveProperty("terminate");
  });

  it("keeps the envelope under 1,000 characters whatever the tool's metadata", () => {
    const huge: SearchCandidate = {
      ...tool,
      id: `mcp:srv:${"n".repeat(20_000)}`,
      name: "n".repeat(20_000),
      label: "L".repeat(20_000),
      description: "D".repeat(20_000),
    };
    const text = toCallResult(envelope({ content: [] }, huge)).content[0];
    expect(text?.type).toBe("text");
    const body = text?.type === "text" ? text.text : "";
    expect(body.length).toBeLessThan(1_000);
    expect(body).not.toContain("LLLL");
    expect(body).not.toContain("DDDD");
  });

  it("passes images up as image content and shows them in the text without data", () => {
    const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };
    const control = toCallResult(envelope({ content: [{ type: "text", text: "see" }, image] }));
    expect(control.content.slice(1)).toEqual([image]);
    const text = control.content[0]?.type === "text" ? control.content[0].text : "";
    expect(JSON.parse(text).result.content).toEqual([
      { type: "text", text: "see" },
      { type: "image", mimeType: "image/png" },
    ]);
    expect(text).not.toContain("aGVsbG8=");
  });

  it("propagates terminate and isError, keeping the envelope", () => {
    const result: ToolResult = { content: [{ type: "text", text: "bye" }], terminate: true, isError: true };
    const control = toCallResult(envelope(result));
    expect(control.terminate).toBe(true);
    expect(control.isError).toBe(true);
    expect(control.details).toEqual({ tool, result });
    const text = control.content[0]?.type === "text" ? control.content[0].text : "";
    expect(JSON.parse(text).result).toEqual({
      content: [{ type: "text", text: "bye" }],
      isError: true,
      terminate: true,
    });
  });

  it("renders unserialisable details as a note", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const details of [cyclic, { n: 1n }]) {
      const control = toCallResult(envelope({ content: [], details }));
      const text = control.content[0]?.type === "text" ? control.content[0].text : "";
      expect(JSON.parse(text).result.details).toMatch(/^\[details not shown: not serialisable as JSON/);
      expect(control.details).toEqual({ tool, result: { content: [], details } });
    }
  });

  it("leaves out malformed content blocks instead of failing", () => {
    const result = {
      content: [{ type: "text", text: 5 }, { type: "audio" }, null, { type: "image", data: 1 }],
    };
    const control = toCallResult(envelope(result as unknown as ToolResult));
    expect(control.content).toHaveLength(1);
    const text = control.content[0]?.type === "text" ? control.content[0].text : "";
    expect(JSON.parse(text).result.content).toEqual([]);
  });
});
