import { describe, expect, it } from "vitest";
import type { ToolResult } from "../catalog/index.js";
import { entryOf, makeTool } from "./execution.test-support.js";
import { UNTRUSTED_NOTE, wrapNetworkResult } from "./wrap-untrusted-text.js";

const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };

describe("wrapNetworkResult", () => {
  const mcp = entryOf(makeTool("fetch", { origin: { kind: "mcp", owner: "web" } }));

  it("wraps every text block of a network-sourced result and keeps images, details and flags", () => {
    const result: ToolResult = {
      content: [{ type: "text", text: "one" }, image, { type: "text", text: "two" }],
      details: { raw: "<|im_start|>" },
      terminate: true,
      isError: true,
    };
    const wrapped = wrapNetworkResult(result, mcp);
    expect(wrapped.content).toHaveLength(3);
    expect(wrapped.content[0]).toEqual({
      type: "text",
      text: `<<<EXTERNAL_UNTRUSTED_CONTENT source="mcp:web:fetch">>>\n${UNTRUSTED_NOTE}\none\n<<<END_EXTERNAL_UNTRUSTED_CONTENT source="mcp:web:fetch">>>`,
    });
    expect(wrapped.content[1]).toBe(image);
    expect(wrapped.content[2]).toMatchObject({ type: "text" });
    expect((wrapped.content[2] as { text: string }).text).toContain("\ntwo\n");
    expect(wrapped.details).toBe(result.details);
    expect(wrapped.terminate).toBe(true);
    expect(wrapped.isError).toBe(true);
    expect(result.content[0]).toEqual({ type: "text", text: "one" });
  });

  it("wraps client tools and native tools marked network", () => {
    const client = entryOf(makeTool("pick", { origin: { kind: "client" } }));
    const nativeNetwork = entryOf(makeTool("browse", { resultSource: "network" }));
    for (const entry of [client, nativeNetwork]) {
      const wrapped = wrapNetworkResult({ content: [{ type: "text", text: "x" }] }, entry);
      expect((wrapped.content[0] as { text: string }).text).toContain(`source="${entry.id}"`);
    }
  });

  it("returns a local result unchanged", () => {
    const local = entryOf(makeTool("read"));
    const result: ToolResult = { content: [{ type: "text", text: "<|im_start|> local" }] };
    expect(wrapNetworkResult(result, local)).toBe(result);
  });
});
