import { describe, expect, it } from "vitest";
import { normalizeToolResult } from "./normalize-tool-result.js";

describe("normalizeToolResult", () => {
  it("copies a well-formed result, keeping flags only when true", () => {
    const details = { a: 1 };
    const result = normalizeToolResult(
      {
        content: [
          { type: "text", text: "hi", extra: 1 },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
        details,
        terminate: "yes",
        isError: true,
      },
      "native:core:t",
    );
    expect(result).toEqual({
      content: [
        { type: "text", text: "hi" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      details,
      isError: true,
    });
  });

  it("treats a missing content as no blocks", () => {
    expect(normalizeToolResult({ details: 5 }, "native:core:t")).toEqual({ content: [], details: 5 });
  });

  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const probes: Array<[string, unknown, string]> = [
    ["undefined", undefined, "expected an object with a content array, got undefined"],
    ["a string", "done", "expected an object with a content array, got a string"],
    ["null", null, "expected an object with a content array, got null"],
    ["an array", [], "expected an object with a content array, got an array"],
    ["content not an array", { content: "text" }, "content is not an array"],
    ["a block that is not an object", { content: [5] }, "content[0] is not an object"],
    [
      "a text block without text",
      { content: [{ type: "text", text: 3 }] },
      "content[0].text is not a string",
    ],
    [
      "an image without data",
      { content: [{ type: "text", text: "" }, { type: "image" }] },
      "content[1] is an image block without string data and mimeType",
    ],
    [
      "an unknown block type",
      { content: [{ type: "resource" }] },
      "content[0] is neither a text nor an image block",
    ],
    ["a revoked proxy", revoked.proxy, "the result could not be read"],
    [
      "a throwing content getter",
      Object.defineProperty({}, "content", {
        get() {
          throw new Error("boom");
        },
      }),
      "content could not be read",
    ],
  ];
  it.each(probes)("rejects %s as TOOL_FAILED", (_name, value, reason) => {
    let error: unknown;
    try {
      normalizeToolResult(value, "native:core:t");
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: "TOOL_FAILED",
      message: `Tool "native:core:t" returned a malformed result: ${reason}.`,
    });
  });
});
