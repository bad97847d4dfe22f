import { describe, expect, it } from "vitest";
import { ToolsiftError } from "../../shared/errors/index.js";
import { entryOf, makeExecutor, makeTool, rejection, settle, textResult } from "./execution.test-support.js";

const surface = { surface: "control" as const };

describe("output contract (steps 5 and 8)", () => {
  it("rejects an invalid outputSchema before anything executes", async () => {
    const tool = makeTool("t", { outputSchema: { type: "strin" } });
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("INVALID_OUTPUT_SCHEMA");
    expect(error.message).toBe('Tool "native:core:t" has an invalid outputSchema.');
    expect(tool.calls).toHaveLength(0);
  });

  it("compiles the outputSchema before validating the input", async () => {
    const entry = entryOf(
      makeTool("t", { outputSchema: { type: "strin" }, parameters: { type: "object", required: ["x"] } }),
    );
    const { executor } = makeExecutor([entry]);
    expect((await rejection(executor.execute(entry, {}, surface))).code).toBe("INVALID_OUTPUT_SCHEMA");
  });

  it("rejects details that break the contract", async () => {
    const entry = entryOf(
      makeTool("t", {
        outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
        execute: async () => textResult("x", { count: "many" }),
      }),
    );
    const { executor, finished } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("OUTPUT_CONTRACT_VIOLATION");
    expect(error.message).toBe(
      'Tool "native:core:t" returned details that do not match its declared outputSchema: property "count" must be integer.',
    );
    expect(finished[0]!.outcome).toBe("error");
  });

  it("rejects a tool-made blocked status that breaks the contract", async () => {
    const entry = entryOf(
      makeTool("t", {
        outputSchema: { type: "object", properties: { rows: { type: "array" } }, required: ["rows"] },
        execute: async () => textResult("blocked", { status: "blocked", reason: "nope" }),
      }),
    );
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("OUTPUT_CONTRACT_VIOLATION");
    expect(error.message).toContain('missing required property "rows"');
  });

  it("accepts matching details and skips the check for isError results", async () => {
    const outputSchema = { type: "object", properties: { ok: { const: true } }, required: ["ok"] };
    const good = entryOf(
      makeTool("good", { outputSchema, execute: async () => textResult("y", { ok: true }) }),
    );
    const failed = entryOf(
      makeTool("failed", {
        outputSchema,
        execute: async () => ({ content: [{ type: "text", text: "no" }], isError: true }),
      }),
    );
    const { executor, finished } = makeExecutor([good, failed]);
    await expect(executor.execute(good, {}, surface)).resolves.toMatchObject({ details: { ok: true } });
    await expect(executor.execute(failed, {}, surface)).resolves.toEqual({
      content: [{ type: "text", text: "no" }],
      isError: true,
    });
    expect(finished.map((activity) => activity.outcome)).toEqual(["ok", "error"]);
  });

  it("never compiles or checks an MCP tool's outputSchema", async () => {
    const entry = entryOf(
      makeTool("t", { origin: { kind: "mcp", owner: "srv" }, outputSchema: { type: "strin" } }),
    );
    const { executor } = makeExecutor([entry]);
    await expect(executor.execute(entry, {}, surface)).resolves.toMatchObject({ details: { input: {} } });
  });
});

describe("execution (step 7)", () => {
  it("turns a throw into TOOL_FAILED naming the tool, keeping the cause for local tools", async () => {
    const thrown = Object.assign(new Error("disk full"), { code: "ENOSPC" });
    const entry = entryOf(
      makeTool("t", {
        execute: async () => {
          throw thrown;
        },
      }),
    );
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error).toBeInstanceOf(ToolsiftError);
    expect(error.code).toBe("TOOL_FAILED");
    expect(error.message).toBe('Tool "native:core:t" failed: disk full');
    expect(error.cause).toBe(thrown);
  });

  it("handles a synchronous throw and a non-promise return", async () => {
    const syncThrow = entryOf(
      makeTool("a", {
        execute: (() => {
          throw new Error("sync");
        }) as never,
      }),
    );
    const plainValue = entryOf(makeTool("b", { execute: (() => textResult("plain")) as never }));
    const { executor } = makeExecutor([syncThrow, plainValue]);
    expect((await rejection(executor.execute(syncThrow, {}, surface))).message).toBe(
      'Tool "native:core:a" failed: sync',
    );
    await expect(executor.execute(plainValue, {}, surface)).resolves.toEqual(textResult("plain"));
  });

  it("reports a malformed result as TOOL_FAILED", async () => {
    const entry = entryOf(makeTool("t", { execute: async () => "just text" as never }));
    const { executor } = makeExecutor([entry]);
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("TOOL_FAILED");
    expect(error.message).toBe(
      'Tool "native:core:t" returned a malformed result: expected an object with a content array, got a string.',
    );
  });

  it("returns an isError result as is and propagates terminate", async () => {
    const entry = entryOf(
      makeTool("t", { execute: async () => ({ content: [], isError: true, terminate: true, details: 1 }) }),
    );
    const { executor } = makeExecutor([entry]);
    await expect(executor.execute(entry, {}, surface)).resolves.toEqual({
      content: [],
      isError: true,
      terminate: true,
      details: 1,
    });
  });

  it("fails with TIMEOUT naming the tool and the limit, and aborts the tool's signal", async () => {
    let toolSignal: AbortSignal | undefined;
    const entry = entryOf(
      makeTool("slow", {
        execute: (_args, context) => {
          toolSignal = context.signal;
          return new Promise(() => {});
        },
      }),
    );
    const { executor } = makeExecutor([entry], { timeoutMs: 20 });
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain('Tool "native:core:slow" timed out after 20 ms');
    expect(toolSignal?.aborted).toBe(true);
  });

  it("reports the caller's abort during execution as CANCELLED with the reason as cause", async () => {
    let toolSignal: AbortSignal | undefined;
    const entry = entryOf(
      makeTool("t", {
        origin: { kind: "mcp", owner: "srv" },
        execute: (_args, context) => {
          toolSignal = context.signal;
          return new Promise((_, reject) =>
            context.signal?.addEventListener("abort", () => reject(new Error("x"))),
          );
        },
      }),
    );
    const { executor } = makeExecutor([entry]);
    const controller = new AbortController();
    const reason = new Error("user stop");
    const pending = executor.execute(entry, {}, { ...surface, signal: controller.signal });
    await settle();
    controller.abort(reason);
    const error = await rejection(pending);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('Tool "mcp:srv:t" was cancelled.');
    expect(error.cause).toBe(reason);
    expect(toolSignal?.aborted).toBe(true);
  });

  it("does not start a call whose signal is already aborted", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    expect(
      (await rejection(executor.execute(entry, {}, { ...surface, signal: AbortSignal.abort() }))).code,
    ).toBe("CANCELLED");
    expect(tool.calls).toHaveLength(0);
  });

  it("uses the default timeout for unusable timeoutMs values", async () => {
    const entry = entryOf(makeTool("t"));
    for (const timeoutMs of [0, -5, Number.NaN]) {
      const { executor } = makeExecutor([entry], { timeoutMs });
      await expect(executor.execute(entry, {}, surface)).resolves.toMatchObject({ details: { input: {} } });
    }
  });
});
