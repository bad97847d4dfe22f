import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { resultText } from "../../runtime/run-surface/index.js";
import { toCallToolResult, toMcpTool } from "./to-mcp-tool.js";

const execute: ToolDefinition["execute"] = async () => ({ content: [] });

describe("toMcpTool", () => {
  it("passes an object schema on as the same object, with the label as title", () => {
    const parameters = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const tool = toMcpTool({ name: "t", label: "T", description: "d", parameters, execute });
    expect(tool).toEqual({ name: "t", title: "T", description: "d", inputSchema: parameters });
    expect(tool.inputSchema).toBe(parameters);
  });

  it.each([
    ["no schema", undefined],
    ["a boolean schema", true],
    ["a non-object type", { type: "string" }],
    ["a property that is not a schema object", { type: "object", properties: { a: true } }],
  ])("announces any object for %s, so a client never rejects the list", (_label, parameters) => {
    const tool = toMcpTool({
      name: "t",
      execute,
      ...(parameters === undefined
        ? {}
        : { parameters: parameters as ToolDefinition["parameters"] & object }),
    });
    expect(tool.inputSchema).toEqual({ type: "object" });
    expect(tool.description).toBe("");
  });

  it("survives a definition whose getters throw", () => {
    const hostile = new Proxy({ execute } as ToolDefinition, {
      get(target, key) {
        if (key === "name") return "proxied";
        if (key === "description") throw new Error("boom");
        return Reflect.get(target, key);
      },
    });
    expect(toMcpTool(hostile)).toEqual({ name: "proxied", description: "", inputSchema: { type: "object" } });
  });
});

describe("toCallToolResult", () => {
  it("keeps text and image blocks and isError, and drops anything else", () => {
    const result = {
      content: [
        { type: "text", text: "a" },
        { type: "image", data: "QQ==", mimeType: "image/png" },
        { type: "video", url: "x" },
      ],
      isError: true,
    } as unknown as Parameters<typeof toCallToolResult>[0];
    expect(toCallToolResult(result)).toEqual({
      content: [
        { type: "text", text: "a" },
        { type: "image", data: "QQ==", mimeType: "image/png" },
      ],
      isError: true,
    });
    expect(resultText(result)).toBe("a\n[image: image/png]");
  });

  it("gives an empty result for a malformed one", () => {
    expect(toCallToolResult(null as unknown as Parameters<typeof toCallToolResult>[0])).toEqual({
      content: [],
    });
  });
});
