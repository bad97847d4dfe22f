// The request shapes the coding agents send the mock directly (when toolsift is their MCP server and the mock
// their model): Codex's namespace tools, namespaced calls and output parts; Claude Code's system messages and
// reminders beside tool results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockOpenAI } from "./start-mock-openai.js";
import type { MockOpenAI } from "./types.js";

let mock: MockOpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
});

afterAll(async () => {
  await mock.close();
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${mock.baseUrl}${path.replace(/^\/v1/u, "")}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const codexControls = {
  type: "namespace",
  name: "mcp__toolsift",
  description: "toolsift",
  tools: ["tool_search", "tool_describe", "tool_call"].map((name) => ({
    type: "function",
    name,
    parameters: { type: "object", properties: {} },
  })),
};

describe("Codex's namespace tools on /v1/responses", () => {
  it("calls a namespaced control as { namespace, name }", async () => {
    const answer = await post("/v1/responses", { input: "target=stdio_get_contact", tools: [codexControls] });
    expect(answer.output).toEqual([
      expect.objectContaining({ type: "function_call", namespace: "mcp__toolsift", name: "tool_search" }),
    ]);
  });

  it("reads namespaced calls and outputs sent in parts, and goes on to tool_call", async () => {
    const found = JSON.stringify([
      { id: "mcp:f:stdio_get_contact", name: "stdio_get_contact", input: "{ id: string }" },
    ]);
    const answer = await post("/v1/responses", {
      tools: [codexControls],
      input: [
        {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "target=stdio_get_contact" }],
        },
        {
          type: "function_call",
          namespace: "mcp__toolsift",
          name: "tool_search",
          call_id: "c1",
          arguments: "{}",
        },
        {
          type: "function_call_output",
          call_id: "c1",
          output: [
            { type: "input_text", text: "Wall time: 0.05 seconds\nOutput:" },
            { type: "input_text", text: found },
          ],
        },
      ],
    });
    expect(answer.output).toEqual([
      expect.objectContaining({
        namespace: "mcp__toolsift",
        name: "tool_call",
        arguments: JSON.stringify({ id: "mcp:f:stdio_get_contact", args: { id: "qa" } }),
      }),
    ]);
  });

  it("refuses a namespace tool without a name or tools", async () => {
    const response = await fetch(`${mock.baseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: "x", tools: [{ type: "namespace", name: "n" }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { message: "a namespace tool needs a non-empty name and a list of tools.", param: "tools" },
    });
  });
});

describe("Claude Code's messages on /v1/messages", () => {
  const bash = {
    name: "Bash",
    input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  };

  it("skips system messages and fills the shell command", async () => {
    const answer = await post("/v1/messages", {
      max_tokens: 100,
      tools: [bash],
      messages: [
        { role: "user", content: [{ type: "text", text: "Run it. target=Bash cmd=echo m-1" }] },
        { role: "system", content: "Available agent types: …" },
      ],
    });
    expect(answer.content).toEqual([
      expect.objectContaining({ type: "tool_use", name: "Bash", input: { command: "echo m-1" } }),
    ]);
  });

  it("reads text beside tool results as part of the results, not a new user turn", async () => {
    const answer = await post("/v1/messages", {
      max_tokens: 100,
      tools: [bash],
      messages: [
        { role: "user", content: "target=Bash cmd=echo m-2" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "echo m-2" } }],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "m-2" },
            { type: "text", text: "<system-reminder>files changed</system-reminder>" },
          ],
        },
      ],
    });
    expect(answer.content).toEqual([expect.objectContaining({ type: "text", text: "Done. m-2" })]);
    expect(answer.stop_reason).toBe("end_turn");
  });
});
