import { expect } from "vitest";
import type { ToolDefinition, ToolResult } from "../catalog/index.js";
import { createTestRuntime, echoTool, type TestRuntimeOptions } from "./controls.test-support.js";
import { createControlTools } from "./create-control-tools.js";

/** The echo tool's input schema. */
export const echoParameters = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
  additionalProperties: false,
};

/** A small catalog covering every kind of target result. */
export const tools: ToolDefinition[] = [
  echoTool("echo", { parameters: echoParameters, description: "Echo some text back." }),
  echoTool("inspect", { description: "Inspect a record by id." }),
  echoTool("write", { description: "Write a file." }),
  echoTool("remote_lookup", {
    origin: { kind: "mcp", owner: "srv" },
    description: "Look something up remotely.",
  }),
  echoTool("finish", {
    description: "Ends the run.",
    execute: async () => ({ content: [{ type: "text", text: "done" }], terminate: true }),
  }),
  echoTool("screenshot", {
    description: "Takes a screenshot.",
    execute: async () => ({
      content: [
        { type: "text", text: "captured" },
        { type: "image", data: "aW1hZ2U=", mimeType: "image/png" },
      ],
      details: { width: 1 },
    }),
  }),
  echoTool("soft_fail", {
    description: "Reports a failure as a result.",
    execute: async () => ({ content: [{ type: "text", text: "not found" }], isError: true }),
  }),
  echoTool("crash", {
    description: "Throws.",
    execute: async () => {
      throw new Error("disk on fire");
    },
  }),
];

/** The three controls over a real test runtime. */
export function controls(options: TestRuntimeOptions = {}, list: ToolDefinition[] = tools) {
  const runtime = createTestRuntime(list, options);
  const [search, describeTool, call] = createControlTools(runtime);
  if (!search || !describeTool || !call) throw new Error("three controls expected");
  return { runtime, search, describe: describeTool, call };
}

/** The first text block of a result. */
export function textOf(result: ToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** Asserts the error-result shape: isError, the message as the only text, details.error { code, message }. */
export function expectError(result: ToolResult, code: string, message: string | RegExp): void {
  expect(result.isError).toBe(true);
  expect(result.content).toHaveLength(1);
  const details = result.details as { error: { code: string; message: string } };
  expect(details.error.code).toBe(code);
  expect(details.error.message).toBe(textOf(result));
  if (typeof message === "string") expect(textOf(result)).toBe(message);
  else expect(textOf(result)).toMatch(message);
}
