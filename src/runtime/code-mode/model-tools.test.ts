import { afterAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { codeModeToolSearch, weatherTool } from "./code-mode.test-support.js";
import { createCodeMode } from "./create-code-mode.js";
import { EXEC_TOOL_NAME, WAIT_TOOL_NAME } from "./model-tools.js";
import { QUICK_INDEX_HEADING } from "./quick-index.js";
import type { CodeModeOutcome } from "./types.js";

const codeMode = createCodeMode({ toolSearch: codeModeToolSearch([weatherTool().tool]), timeoutMs: 2_500 });
afterAll(() => codeMode.close());
const [exec, wait] = codeMode.modelTools() as [ToolDefinition, ToolDefinition];

describe("Code Mode model tools", () => {
  it("declares exec { code, yieldMs? } and wait { runId, yieldMs? } as direct-only core tools", () => {
    expect(exec.name).toBe(EXEC_TOOL_NAME);
    expect(wait.name).toBe(WAIT_TOOL_NAME);
    expect(exec.parameters).toMatchObject({
      type: "object",
      properties: { code: { type: "string" }, yieldMs: { type: "integer", minimum: 0 } },
      required: ["code"],
      additionalProperties: false,
    });
    expect(wait.parameters).toMatchObject({
      type: "object",
      properties: { runId: { type: "string" }, yieldMs: { type: "integer", minimum: 0 } },
      required: ["runId"],
      additionalProperties: false,
    });
    for (const tool of [exec, wait])
      expect(tool).toMatchObject({ catalogMode: "direct-only", origin: { kind: "core" } });
  });

  it("puts the cell API, the effective limits and the quick index in exec's description", () => {
    const description = exec.description ?? "";
    expect(description).toContain("tools.search(query, { limit })");
    expect(description).toContain("tools.callValue(id, args)");
    expect(description).toContain("2500 ms, 256 tool bridge calls");
    expect(description).toContain(QUICK_INDEX_HEADING);
    expect(description).toContain(
      "- native:weather:get_forecast({ city: string }) -> { city: string; tempC: number }",
    );
  });

  it("runs a cell: details carry the outcome, the text is its JSON", async () => {
    const result = await exec.execute(
      { code: "return await tools.callValue('get_forecast', { city: 'Oslo' });" },
      {},
    );
    const outcome: CodeModeOutcome = { status: "completed", value: { city: "Oslo", tempC: 21 }, logs: [] };
    expect(result).toEqual({
      content: [{ type: "text", text: JSON.stringify(outcome, null, 2) }],
      details: outcome,
    });
  });

  it.each([
    ["no arguments", undefined],
    ["null", null],
    ["a code that is a number", { code: 7 }],
    ["a missing code", { yieldMs: 5 }],
    [
      "arguments that throw when read",
      new Proxy(
        {},
        {
          get: () => {
            throw new Error("trap");
          },
        },
      ),
    ],
  ])("answers a bad exec request (%s) with an error result, never an exception", async (_name, args) => {
    const result = await exec.execute(args, {});
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ status: "failed", error: { code: "INVALID_REQUEST" } });
  });

  it("marks failed cells as errors and answers wait for unknown runs the same way", async () => {
    const failed = await exec.execute({ code: "throw new Error('no');" }, {});
    expect(failed).toMatchObject({
      isError: true,
      details: { status: "failed", error: { code: "CELL_ERROR" } },
    });
    for (const args of [{ runId: "cell_nope" }, {}, null]) {
      const result = await wait.execute(args, {});
      expect(result).toMatchObject({
        isError: true,
        details: { status: "failed", error: { code: "UNKNOWN_RUN" } },
      });
    }
  });

  it("hands the exec call's yieldMs on, and wait picks the cell up", async () => {
    const running = await exec.execute(
      { code: "let n = 0; for (let i = 0; i < 2e6; i++) n += i % 3; return n > 0;", yieldMs: 0 },
      {},
    );
    expect(running.details).toMatchObject({ status: "running" });
    const runId = (running.details as { runId: string }).runId;
    const done = await wait.execute({ runId, yieldMs: 20_000 }, {});
    expect(done.details).toEqual({ status: "completed", value: true, logs: [] });
  });

  it("stops the cell when the exec call's signal aborts", async () => {
    const controller = new AbortController();
    const pending = exec.execute({ code: "await new Promise(() => {});" }, { signal: controller.signal });
    controller.abort();
    expect((await pending).details).toMatchObject({ status: "failed", error: { code: "CANCELLED" } });
  });
});
