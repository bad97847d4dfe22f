import { describe, expect, it } from "vitest";
import { messageOf } from "./message-of.js";
import { ToolsiftError } from "./toolsift-error.js";

describe("messageOf", () => {
  it.each([
    ["an Error", new Error("disk full"), "disk full"],
    ["an Error subclass", new TypeError("not a function"), "not a function"],
    ["a ToolsiftError", new ToolsiftError("TOOL_FAILED", "the tool failed"), "the tool failed"],
    ["an Error with an empty message", new Error(""), ""],
    ["a string", "plain text", "plain text"],
    ["a number", 42, "42"],
    ["undefined", undefined, "undefined"],
    ["null", null, "null"],
    ["a plain object", { message: "not an Error" }, "[object Object]"],
  ])("%s", (_name, value, expected) => {
    expect(messageOf(value)).toBe(expected);
  });
});
