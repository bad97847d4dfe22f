import { describe, expect, it } from "vitest";
import { MAX_TOOL_NAME_CHARS } from "./limits.js";
import { readListedTool } from "./list-server-tools.js";

describe("readListedTool", () => {
  it.each([
    ["null", null],
    ["a string", "tool"],
    ["an array", [{ name: "x" }]],
    ["no name", { description: "d" }],
    ["a numeric name", { name: 7 }],
    ["an empty name", { name: "" }],
    ["a name over the bound", { name: "n".repeat(MAX_TOOL_NAME_CHARS + 1) }],
    ["a newline in the name", { name: "a\nb" }],
    ["a NUL in the name", { name: "a\u0000b" }],
    ["a line separator in the name", { name: "a\u2028b" }],
  ])("leaves out a tool with %s", (_label, raw) => {
    expect(readListedTool(raw)).toBeUndefined();
  });

  it("keeps name, description and title, and the input schema as the very same object", () => {
    const inputSchema = { type: "object", properties: { a: { type: "string" } } };
    const tool = readListedTool({ name: "t", description: "d", title: "T", inputSchema, extra: 1 });
    expect(tool).toEqual({ name: "t", description: "d", title: "T", inputSchema });
    expect(tool?.inputSchema).toBe(inputSchema);
  });

  it("reads the title from annotations when there is no top-level title", () => {
    expect(readListedTool({ name: "t", annotations: { title: "From annotations" } })?.title).toBe(
      "From annotations",
    );
  });

  it("keeps names of exactly the bound, and odd schemas untouched", () => {
    const name = "n".repeat(MAX_TOOL_NAME_CHARS);
    expect(readListedTool({ name, inputSchema: "not a schema" })).toEqual({
      name,
      inputSchema: "not a schema",
    });
  });
});
