import { describe, expect, it } from "vitest";
import type { ToolResult } from "../catalog/index.js";
import { fitCandidateMetadata } from "./batch-response.js";
import { echoTool } from "./controls.test-support.js";
import { controls, expectError, textOf } from "./create-control-tools.test-support.js";
import type { BatchSearchResponse, SearchCandidate } from "./types.js";

const huge = [
  echoTool("big_meta", { label: "L".repeat(20_000), description: `Big metadata ${"D".repeat(20_000)}` }),
  echoTool("small", { description: "A small tool." }),
];

describe("reference behaviours: tool_search", () => {
  it("echoes each batch query trimmed", async () => {
    const { search } = controls();
    const result = await search.execute({ queries: [{ query: " echo " }, { query: "\twrite\n" }] }, {});
    const details = result.details as BatchSearchResponse;
    expect(details.results.map((group) => group.query)).toEqual(["echo", "write"]);
    expect(JSON.parse(textOf(result)).results[0].query).toBe("echo");
  });

  it("keeps full metadata in details and bounds the model-facing text", async () => {
    const { search } = controls({}, huge);
    const result = await search.execute({ query: "big_meta", limit: 1 }, {});
    const [candidate] = result.details as SearchCandidate[];
    expect(candidate?.label).toHaveLength(20_000);
    expect(candidate?.description).toHaveLength(20_013);
    const [shown] = JSON.parse(textOf(result)) as SearchCandidate[];
    expect(shown?.label).toHaveLength(512);
    expect(shown?.description).toHaveLength(8_192);
    expect(shown?.description.endsWith("...")).toBe(true);
    expect(textOf(result).length).toBeLessThan(9_000);
  });

  it("drops from a batch candidate only the optional field that alone exceeds its budget", async () => {
    const { search } = controls({}, huge);
    const result = await search.execute({ queries: [{ query: "big_meta", limit: 1 }] }, {});
    const [candidate] = (result.details as BatchSearchResponse).results[0]?.candidates ?? [];
    expect(candidate?.name).toBe("big_meta");
    expect(candidate).not.toHaveProperty("label");
    expect(candidate?.owner).toBe("core");
    const fitted = fitCandidateMetadata({
      id: "mcp:s:t",
      source: "mcp",
      owner: "s",
      name: "t",
      label: "L".repeat(2_001),
      description: "d",
      input: "unknown",
      mcp: { server: "s", tool: "t" },
    });
    expect(fitted).toEqual({
      id: "mcp:s:t",
      source: "mcp",
      owner: "s",
      name: "t",
      description: "d",
      input: "unknown",
      mcp: { server: "s", tool: "t" },
    });
  });

  it("writes compact JSON (no indentation) as model-facing text", async () => {
    const { search, describe: describeTool, call } = controls();
    for (const result of [
      await search.execute({ query: "echo" }, {}),
      await search.execute({ queries: [{ query: "echo" }] }, {}),
      await describeTool.execute({ id: "echo" }, {}),
      await call.execute({ id: "echo", args: { text: "hi" } }, {}),
    ]) {
      expect(textOf(result)).toBe(JSON.stringify(JSON.parse(textOf(result))));
    }
  });
});

describe("reference behaviours: tool_describe and tool_call", () => {
  it("tool_describe accepts { input: { id } } like tool_call", async () => {
    const { describe: describeTool } = controls();
    const result = await describeTool.execute({ input: { id: "native:core:inspect" } }, {});
    expect((result.details as { id: string }).id).toBe("native:core:inspect");
    const wrappedInArgs = await describeTool.execute({ args: { id: "inspect" } }, {});
    expect((wrappedInArgs.details as { id: string }).id).toBe("native:core:inspect");
  });

  it("refuses a malformed outer id beside a wrapped selector, running nothing", async () => {
    const { call, runtime } = controls();
    for (const id of ["", 42]) {
      expectError(
        await call.execute({ id, args: { id: "echo", args: { text: "x" } } }, {}),
        "INVALID_REQUEST",
        "id must be a non-empty string.",
      );
    }
    expect(runtime.executions).toEqual([]);
    expect(runtime.counts.call).toBe(0);
  });

  it("runs flattened arguments beside null wrappers, and payloads double-wrapped in input", async () => {
    const { call, runtime } = controls();
    await call.execute({ id: "echo", args: null, text: "a" }, {});
    await call.execute({ id: "echo", input: null, text: "b" }, {});
    await call.execute({ input: { id: "echo", args: { text: "c" } } }, {});
    await call.execute({ id: "echo", "args.text": "dotted", text: "d" }, {});
    expect(runtime.executions.map((execution) => execution.args)).toEqual([
      { text: "a" },
      { text: "b" },
      { text: "c" },
      { text: "d" },
    ]);
  });

  it("shows an MCP tool's structured result once: content in the text, structuredContent in details", async () => {
    const file = "x".repeat(10_801);
    const mcpResult: ToolResult = {
      content: [{ type: "text", text: file }],
      details: { content: file },
    };
    const { call } = controls({}, [
      echoTool("read_text_file", { origin: { kind: "mcp", owner: "fs" }, execute: async () => mcpResult }),
      echoTool("native_read", { execute: async () => mcpResult }),
    ]);
    const mcp = await call.execute({ id: "mcp:fs:read_text_file" }, {});
    expect(textOf(mcp).split(file).length - 1).toBe(1);
    expect(textOf(mcp).length).toBeLessThan(file.length + 1_000);
    expect(((mcp.details as { result: ToolResult }).result.details as { content: string }).content).toBe(
      file,
    );
    // a native tool's details stay in the text (they are not a mirror of its content by contract)
    const native = await call.execute({ id: "native_read" }, {});
    expect(textOf(native).split(file).length - 1).toBe(2);
  });

  it("keeps an MCP tool's details in the text when it sent no content", async () => {
    const { call } = controls({}, [
      echoTool("structured_only", {
        origin: { kind: "mcp", owner: "fs" },
        execute: async () => ({ content: [], details: { answer: 42 } }),
      }),
    ]);
    const result = await call.execute({ id: "mcp:fs:structured_only" }, {});
    expect(textOf(result)).toContain("answer");
  });
});
