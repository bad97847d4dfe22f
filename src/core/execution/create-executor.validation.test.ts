import { describe, expect, it } from "vitest";
import { entryOf, makeExecutor, makeTool, rejection } from "./execution.test-support.js";

const surface = { surface: "control" as const };

const editSchema = {
  type: "object",
  properties: { instruction: { type: "string" }, count: { type: "integer", minimum: 1 } },
  required: ["instruction"],
  additionalProperties: false,
};

describe("input validation (step 6)", () => {
  it("rejects missing, mistyped and forbidden properties before execution, with hints", async () => {
    const tool = makeTool("edit", { parameters: editSchema });
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, { instructon: "fix", count: 1.5 }, surface));
    expect(error.code).toBe("INVALID_ARGUMENTS");
    expect(error.message).toBe(
      'Invalid arguments for tool "native:core:edit": missing required property "instruction"; unexpected property "instructon"; property "count" must be integer. Did you mean: instruction? Expected input: { instruction: string; count?: number /* integer, >= 1 */ }.',
    );
    expect(tool.calls).toHaveLength(0);
  });

  it("omits the signature when it renders as unknown, and the suggestion when nothing is close", async () => {
    const entry = entryOf(makeTool("t", { parameters: { required: ["marker"] } }));
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, { zzz: 1 }, surface));
    expect(error.message).toBe(
      'Invalid arguments for tool "native:core:t": missing required property "marker".',
    );
  });

  it("lists at most three suggestions, comma-separated", async () => {
    const entry = entryOf(
      makeTool("t", {
        parameters: {
          type: "object",
          properties: { alpha: {}, bravo: {}, charlie: {}, delta: {} },
          additionalProperties: false,
        },
      }),
    );
    const { executor } = makeExecutor([entry]);
    const error = await rejection(
      executor.execute(entry, { alpah: 1, bravoo: 1, charlei: 1, detla: 1 }, surface),
    );
    expect(error.message).toContain(" Did you mean: alpha, bravo, charlie? Expected input:");
  });

  it("validates the arguments as rewritten by before_tool_call hooks", async () => {
    const tool = makeTool("edit", { parameters: editSchema });
    const entry = entryOf(tool);
    const fixing = makeExecutor([entry], {
      hooks: { beforeToolCall: () => ({ params: { instruction: "ok" } }) },
    });
    await fixing.executor.execute(entry, { wrong: true }, surface);
    expect(tool.calls).toEqual([{ instruction: "ok" }]);

    const breaking = makeExecutor([entry], { hooks: { beforeToolCall: () => ({ params: { count: 2 } }) } });
    const error = await rejection(breaking.executor.execute(entry, { instruction: "fine" }, surface));
    expect(error.message).toContain('missing required property "instruction"');
    expect(tool.calls).toHaveLength(1);
  });

  it("accepts anything for an entry without parameters", async () => {
    const tool = makeTool("free");
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    await executor.execute(entry, { any: ["thing"] }, surface);
    await executor.execute(entry, undefined, surface);
    expect(tool.calls).toEqual([{ any: ["thing"] }, undefined]);
  });

  it("never compiles, walks or validates MCP and client schemas (Proxy records every access)", async () => {
    for (const origin of [{ kind: "mcp" as const, owner: "srv" }, { kind: "client" as const }]) {
      const accesses: PropertyKey[] = [];
      const schema = new Proxy(
        { type: "object", required: ["never"], additionalProperties: false },
        {
          get(target, key, receiver) {
            accesses.push(key);
            return Reflect.get(target, key, receiver);
          },
          ownKeys(target) {
            accesses.push("ownKeys");
            return Reflect.ownKeys(target);
          },
          has(target, key) {
            accesses.push(key);
            return Reflect.has(target, key);
          },
          getOwnPropertyDescriptor(target, key) {
            accesses.push(key);
            return Reflect.getOwnPropertyDescriptor(target, key);
          },
        },
      );
      const tool = makeTool("remote", { origin, parameters: schema });
      const entry = entryOf(tool);
      const { executor } = makeExecutor([entry]);
      await executor.execute(entry, { anything: 1 }, surface);
      expect(tool.calls).toEqual([{ anything: 1 }]);
      expect(accesses).toEqual([]);
    }
  });

  it("recompiles after an in-place schema change: the next call validates the new content", async () => {
    const parameters = {
      type: "object",
      properties: { n: { type: "string" } as Record<string, unknown> },
      required: ["n"],
    };
    const tool = makeTool("t", { parameters });
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    await executor.execute(entry, { n: "text" }, surface);
    parameters.properties.n = { type: "number" };
    const error = await rejection(executor.execute(entry, { n: "text" }, surface));
    expect(error.message).toContain('property "n" must be number');
    await executor.execute(entry, { n: 5 }, surface);
    expect(tool.calls).toEqual([{ n: "text" }, { n: 5 }]);
  });

  it("reports a schema ajv cannot compile as a clear error naming the tool, executing nothing", async () => {
    const tool = makeTool("broken", { parameters: { type: "object", properties: { a: { type: "strin" } } } });
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, { a: "x" }, surface));
    expect(error.code).toBe("INVALID_ARGUMENTS");
    expect(error.message).toMatch(
      /^Tool "native:core:broken" has an invalid input schema and cannot be called: schema is invalid: .+\. Report this to the tool's author; no arguments can satisfy it\.$/u,
    );
    expect(tool.calls).toHaveLength(0);
  });

  it("validates nested properties and reports them by path", async () => {
    const entry = entryOf(
      makeTool("t", {
        parameters: {
          type: "object",
          properties: {
            opts: {
              type: "object",
              properties: { mode: { enum: ["drip", "flood"] } },
              additionalProperties: false,
            },
          },
        },
      }),
    );
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, { opts: { mode: "rain", mdoe: 1 } }, surface));
    expect(error.message).toContain('unexpected property "opts.mdoe"');
    expect(error.message).toContain('property "opts.mode" must be one of "drip", "flood"');
  });
});
