import { describe, expect, it } from "vitest";
import { toToolResult } from "./to-tool-result.js";

describe("toToolResult", () => {
  it("keeps text and images, and maps structuredContent to details and isError", () => {
    expect(
      toToolResult({
        content: [
          { type: "text", text: "hello" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
        structuredContent: { ok: true },
        isError: true,
      }),
    ).toEqual({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
      details: { ok: true },
      isError: true,
    });
  });

  it("turns audio, resources and resource links into text notes", () => {
    const result = toToolResult({
      content: [
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "A_TEXT" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA", mimeType: "application/zip" } },
        { type: "resource_link", uri: "file:///c", name: "c" },
      ],
    });
    expect(result.content).toEqual([
      { type: "text", text: "[audio content (audio/wav) is not shown]" },
      { type: "text", text: "[resource file:///a.txt]\nA_TEXT" },
      { type: "text", text: "[binary resource file:///b.bin, application/zip is not shown]" },
      { type: "text", text: "[resource link: file:///c (c)]" },
    ]);
    expect(result.isError).toBeUndefined();
    expect(result).not.toHaveProperty("details");
  });

  it("shows structured content as text when the server sent no content blocks", () => {
    expect(toToolResult({ content: [], structuredContent: { n: 1 } })).toEqual({
      content: [{ type: "text", text: '{"n":1}' }],
      details: { n: 1 },
    });
  });
});
