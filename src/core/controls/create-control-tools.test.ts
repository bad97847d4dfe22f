import { describe, expect, it } from "vitest";
import { createTestRuntime, echoTool, recordingSchema } from "./controls.test-support.js";
import { createControlTools } from "./create-control-tools.js";
import { controls, echoParameters, expectError, textOf, tools } from "./create-control-tools.test-support.js";
import { RECOVERY_HINT } from "./resolve-target.js";

describe("createControlTools: the definitions", () => {
  it("declares tool_search, tool_describe and tool_call as direct-only core tools", () => {
    const list = createControlTools(createTestRuntime(tools));
    expect(list.map((tool) => tool.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    for (const tool of list) {
      expect(tool.origin).toEqual({ kind: "core", owner: "core" });
      expect(tool.catalogMode).toBe("direct-only");
      expect(typeof tool.execute).toBe("function");
    }
  });

  it("declares the spec's parameters", () => {
    const [search, describeTool, call] = createControlTools(createTestRuntime(tools));
    expect(search?.parameters).toMatchObject({
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: "integer", minimum: 1 },
        queries: {
          type: "array",
          maxItems: 16,
          items: {
            type: "object",
            properties: {
              query: { type: "string", minLength: 1, maxLength: 512 },
              limit: { type: "integer", minimum: 1 },
            },
            required: ["query"],
          },
        },
      },
    });
    expect(search?.parameters).not.toHaveProperty("required");
    expect(describeTool?.parameters).toMatchObject({
      properties: { id: { type: "string" } },
      required: ["id"],
    });
    expect(call?.parameters).toMatchObject({
      properties: { id: { type: "string" }, args: { type: "object" } },
      required: ["id"],
    });
  });

  it("has constant descriptions that say how to use each control", () => {
    const first = createControlTools(createTestRuntime(tools));
    const second = createControlTools(createTestRuntime([]));
    expect(second.map((tool) => tool.description)).toEqual(first.map((tool) => tool.description));
    const [search, describeTool, call] = first;
    expect(search?.description).toMatch(/English/);
    expect(search?.description).toMatch(/id/);
    expect(search?.description).toMatch(/tool_describe/);
    expect(search?.description).toMatch(/tool_call/);
    expect(describeTool?.description).toMatch(/signature/);
    expect(describeTool?.description).toMatch(/not enough/);
    expect(call?.description).toMatch(/id \(or unique name\) in id/);
    expect(call?.description).toMatch(/every parameter of that tool in args/);
  });

  it("gives each set of controls its own parameter objects", () => {
    const [first] = createControlTools(createTestRuntime(tools));
    const [second] = createControlTools(createTestRuntime(tools));
    (first?.parameters as Record<string, unknown>).polluted = true;
    expect(second?.parameters).not.toHaveProperty("polluted");
  });
});

/** How the controls summarise the echo tool (a search candidate; a describe adds its parameters). */
const ECHO_SUMMARY = {
  id: "native:core:echo",
  source: "native",
  owner: "core",
  name: "echo",
  description: "Echo some text back.",
  input: "{ text: string }",
};

describe("tool_search", () => {
  it("answers a single query with the candidate array in details and its compact JSON as text", async () => {
    const { search, runtime } = controls();
    const result = await search.execute({ query: "echo", limit: 1 }, {});
    expect(result.isError).toBeUndefined();
    expect(result.details).toEqual([ECHO_SUMMARY]);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.details) }]);
    expect(runtime.counts.search).toBe(1);
  });

  it("answers a batch with { results } in details", async () => {
    const { search } = controls();
    const result = await search.execute(
      {
        queries: [
          { query: "echo", limit: 1 },
          { query: "inspect", limit: 1 },
        ],
      },
      {},
    );
    expect(result.details).toEqual({
      results: [
        { query: "echo", candidates: [expect.objectContaining({ id: "native:core:echo" })] },
        { query: "inspect", candidates: [expect.objectContaining({ id: "native:core:inspect" })] },
      ],
    });
    expect(textOf(result)).toBe(JSON.stringify(result.details));
  });

  it("bounds a batch answer's model text, the compact JSON the model reads, at 4,000 characters", async () => {
    const many = Array.from({ length: 40 }, (_, index) =>
      echoTool(`note_tool_${index}`, {
        description: `Keeps a note number ${index}. ${"Words about notes. ".repeat(12)}`,
      }),
    );
    const { search } = controls({ maxSearchLimit: 20 }, many);
    const result = await search.execute(
      {
        queries: [
          { query: "note", limit: 20 },
          { query: "notes words", limit: 20 },
        ],
      },
      {},
    );
    const text = textOf(result);
    expect(text).toBe(JSON.stringify(result.details));
    expect(text.length).toBeLessThanOrEqual(4_000);
    expect(result.details).toMatchObject({ truncated: true });
    // The bound is on the compact text: the same answer indented would be longer than the bound allows.
    expect(JSON.stringify(result.details, null, 2).length).toBeGreaterThan(4_000);
  });

  it("returns request errors as error results with the spec's text", async () => {
    const { search } = controls();
    expectError(await search.execute({}, {}), "INVALID_REQUEST", "provide query or queries.");
    expectError(
      await search.execute({ queries: Array.from({ length: 17 }, () => ({ query: "x", limit: 1 })) }, {}),
      "INVALID_REQUEST",
      /^a batch allows at most 16 queries; got 17\./,
    );
  });
});

describe("tool_describe", () => {
  it("answers with the description in details and as compact JSON, counting one describe", async () => {
    const { describe: describeTool, runtime } = controls();
    const result = await describeTool.execute({ id: "echo" }, {});
    expect(result.details).toEqual({ ...ECHO_SUMMARY, parameters: echoParameters });
    expect(textOf(result)).toBe(JSON.stringify(result.details));
    expect(runtime.counts.describe).toBe(1);
  });

  it("accepts name or toolId when a weak model leaves out id", async () => {
    const { describe: describeTool } = controls();
    expect(((await describeTool.execute({ name: "inspect" }, {})).details as { id: string }).id).toBe(
      "native:core:inspect",
    );
    expect(((await describeTool.execute({ toolId: "inspect" }, {})).details as { id: string }).id).toBe(
      "native:core:inspect",
    );
  });

  it("returns an MCP schema as received and reads it only to write the text", async () => {
    const { schema, reads } = recordingSchema();
    const { describe: describeTool } = controls({}, [
      echoTool("proxied", { origin: { kind: "mcp", owner: "srv" }, parameters: schema }),
    ]);
    const result = await describeTool.execute({ id: "mcp:srv:proxied" }, {});
    expect((result.details as { parameters: unknown }).parameters).toBe(schema);
    expect(JSON.parse(textOf(result)).parameters).toEqual({ type: "object" });
    expect(
      reads.every((read) => read === "ownKeys" || read.startsWith("get:") || read.startsWith("descriptor:")),
    ).toBe(true);
  });

  it("describes a cyclic or throwing MCP schema without failing", async () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("boom");
        },
      },
    );
    const { describe: describeTool } = controls({}, [
      echoTool("cyclic", { origin: { kind: "mcp", owner: "srv" }, parameters: cyclic }),
      echoTool("throwing", { origin: { kind: "mcp", owner: "srv" }, parameters: throwing }),
    ]);
    for (const id of ["mcp:srv:cyclic", "mcp:srv:throwing"]) {
      const result = await describeTool.execute({ id }, {});
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(textOf(result)).parameters).toMatch(/^\[schema not shown/);
    }
  });

  it("returns misses as error results and counts no describe", async () => {
    const { describe: describeTool, runtime } = controls();
    expectError(
      await describeTool.execute({ id: "file_write" }, {}),
      "UNKNOWN_TOOL",
      `Unknown tool id: file_write. Did you mean: write? ${RECOVERY_HINT}`,
    );
    expectError(await describeTool.execute({}, {}), "INVALID_REQUEST", "id must be a non-empty string.");
    expect(runtime.counts.describe).toBe(0);
  });
});

describe("tool_call", () => {
  it("calls the target and answers with the envelope, showing the model only id, name, source and result", async () => {
    const { call, runtime } = controls();
    const result = await call.execute(
      { id: "native:core:echo", args: { text: "hi" } },
      { toolCallId: "call-1" },
    );
    expect(result.isError).toBeUndefined();
    expect(result.details).toEqual({
      tool: ECHO_SUMMARY,
      result: {
        content: [{ type: "text", text: 'echo {"text":"hi"}' }],
        details: { tool: "echo", args: { text: "hi" } },
      },
    });
    expect(JSON.parse(textOf(result))).toEqual({
      tool: { id: "native:core:echo", name: "echo", source: "native" },
      result: {
        content: [{ type: "text", text: 'echo {"text":"hi"}' }],
        details: { tool: "echo", args: { text: "hi" } },
      },
    });
    expect(textOf(result)).toBe(JSON.stringify(JSON.parse(textOf(result))));
    expect(runtime.counts.call).toBe(1);
  });

  it("repairs flattened arguments and keeps non-selector keys as target arguments", async () => {
    const { call, runtime } = controls();
    await call.execute({ id: "native:core:echo", text: "hi" }, {});
    await call.execute({ toolId: "inspect", id: "record-7" }, {});
    await call.execute({ args: { id: "echo", args: { text: "wrapped" } } }, {});
    expect(runtime.executions.map((execution) => [execution.entry.id, execution.args])).toEqual([
      ["native:core:echo", { text: "hi" }],
      ["native:core:inspect", { id: "record-7" }],
      ["native:core:echo", { text: "wrapped" }],
    ]);
  });

  it("executes nothing for ambiguous selectors, unknown tools, skills and direct-only tools", async () => {
    const { call, runtime } = controls({
      skills: [{ name: "pdf-forms", location: "/skills/pdf-forms/SKILL.md" }],
      directOnlyNames: ["message"],
    });
    expectError(
      await call.execute({ id: "echo", name: "inspect", text: "x" }, {}),
      "INVALID_REQUEST",
      "Ambiguous tool selectors: pass the target tool id and nest target arguments under args.",
    );
    expectError(
      await call.execute({ id: "file_write", args: {} }, {}),
      "UNKNOWN_TOOL",
      /^Unknown tool id: file_write\./,
    );
    expectError(await call.execute({ id: "pdf-forms" }, {}), "SKILL_NOT_TOOL", /is a skill, not a tool/);
    expectError(
      await call.execute({ id: "message", args: { text: "x" } }, {}),
      "DIRECT_ONLY_TOOL",
      /call message directly/,
    );
    expectError(await call.execute({ args: {} }, {}), "INVALID_REQUEST", "id must be a non-empty string.");
    expect(runtime.executions).toEqual([]);
    expect(runtime.counts.call).toBe(0);
  });

  it("propagates terminate and passes images up as image content", async () => {
    const { call } = controls();
    const finished = await call.execute({ id: "finish" }, {});
    expect(finished.terminate).toBe(true);
    const shot = await call.execute({ id: "screenshot" }, {});
    expect(shot.content.slice(1)).toEqual([{ type: "image", data: "aW1hZ2U=", mimeType: "image/png" }]);
    expect(JSON.parse(textOf(shot)).result.content).toEqual([
      { type: "text", text: "captured" },
      { type: "image", mimeType: "image/png" },
    ]);
  });

  it("turns a target's isError result into an error result that keeps the envelope", async () => {
    const { call } = controls();
    const result = await call.execute({ id: "soft_fail" }, {});
    expect(result.isError).toBe(true);
    expect((result.details as { tool: { id: string } }).tool.id).toBe("native:core:soft_fail");
    expect(JSON.parse(textOf(result)).result.isError).toBe(true);
  });

  it("reports validation failures, tool failures, blocks and cancellations as error results", async () => {
    const { call } = controls({
      hooks: {
        checkPolicy: (event) =>
          event.entry.name === "write" ? { allowed: false, reason: "writes are off" } : { allowed: true },
      },
    });
    expectError(
      await call.execute({ id: "echo", args: { text: 5 } }, {}),
      "INVALID_ARGUMENTS",
      /^Invalid arguments for tool "native:core:echo": /,
    );
    expectError(await call.execute({ id: "crash" }, {}), "TOOL_FAILED", /disk on fire/);
    const blocked = await call.execute({ id: "write", args: { path: "x" } }, {});
    expectError(blocked, "BLOCKED", /writes are off/);
    expect(blocked.details).toMatchObject({ status: "blocked", reason: "writes are off" });
    const controller = new AbortController();
    controller.abort();
    expectError(
      await call.execute({ id: "echo", args: { text: "x" } }, { signal: controller.signal }),
      "CANCELLED",
      /cancelled/,
    );
  });

  it("keeps the envelope small for a tool with huge metadata", async () => {
    const { call } = controls({}, [
      echoTool("big", {
        label: "L".repeat(20_000),
        description: "D".repeat(20_000),
        execute: async () => ({ content: [] }),
      }),
    ]);
    const text = textOf(await call.execute({ id: "big" }, {}));
    expect(text.length).toBeLessThan(1_000);
  });
});
