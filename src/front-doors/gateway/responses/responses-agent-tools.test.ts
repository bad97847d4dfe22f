import OpenAI from "openai";
import type { ResponseStreamEvent, Tool } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { errorOf, startTestGateway } from "../gateway.test-support.js";

// Agents' tool forms (Codex CLI's namespaces, custom tools and hosted tools) through the official `openai`
// client against a real gateway over the FakeRunner: what the runner is given, and each call going back to
// the client in the form it declared, whole and streamed.

const clientFor = (url: string, session = "agent-tools") =>
  new OpenAI({
    baseURL: `${url}/v1`,
    apiKey: "unused",
    maxRetries: 0,
    defaultHeaders: { "x-toolsift-session": session },
  });

const PARAMETERS = { type: "object", properties: { message: { type: "string" } } };

/** A tool list as Codex CLI sends it: plain and namespaced functions, a custom tool, a hosted search. */
const AGENT_TOOLS: Tool[] = [
  {
    type: "function",
    name: "exec_command",
    description: "Run a command.",
    parameters: PARAMETERS,
    strict: false,
  },
  {
    type: "namespace",
    name: "multi_agent_v1",
    description: "Sub-agents.",
    tools: [
      {
        type: "function",
        name: "spawn_agent",
        description: "Spawn one.",
        parameters: PARAMETERS,
        strict: false,
      },
    ],
  },
  { type: "custom", name: "apply_patch", description: "Patch files.", format: { type: "text" } },
  { type: "web_search", external_web_access: false } as Tool,
];

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("Responses agent tools through the official openai client", () => {
  it("gives the runner the model's view and hands a namespaced call back with its namespace, then continues", async () => {
    const test = await startTestGateway();
    const client = clientFor(test.url);
    const first = await client.responses.create({
      model: "toolsift",
      input: 'call:multi_agent_v1__spawn_agent {"message":"hi"}',
      tools: AGENT_TOOLS,
    });
    expect(test.runner.requests[0]?.clientTools?.map((tool) => tool.name)).toEqual([
      "exec_command",
      "multi_agent_v1__spawn_agent",
      "apply_patch",
    ]);
    expect(test.runner.requests[0]?.clientTools?.[1]?.owner).toBe("multi_agent_v1");
    expect(test.runner.requests[0]?.omittedHostedTools).toEqual(["web_search"]);
    expect(first.output).toEqual([
      expect.objectContaining({
        type: "function_call",
        namespace: "multi_agent_v1",
        name: "spawn_agent",
        arguments: '{"message":"hi"}',
        status: "completed",
      }),
    ]);
    expect((first as unknown as { toolsift?: unknown }).toolsift).toEqual({
      omitted_hosted_tools: ["web_search"],
    });
    const call = first.output[0];
    if (call?.type !== "function_call") throw new Error("expected a function_call");

    // Codex resends its history statelessly: the call as it got it, then its output.
    const second = await client.responses.create({
      model: "toolsift",
      store: false,
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "spawn" }] },
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque" } as never,
        {
          type: "function_call",
          call_id: call.call_id,
          namespace: "multi_agent_v1",
          name: "spawn_agent",
          arguments: call.arguments,
        } as never,
        {
          type: "function_call_output",
          call_id: call.call_id,
          output: [{ type: "input_text", text: "agent 7 spawned" }],
        },
      ],
      tools: AGENT_TOOLS,
    });
    expect(second.output_text).toBe("tool said: agent 7 spawned");
    // The session already held the call: the new turn is its output only.
    expect(test.runner.requests[1]?.input).toEqual([
      { type: "function_call_output", callId: call.call_id, output: "agent 7 spawned" },
    ]);
  });

  it("hands a custom tool call back as custom_tool_call with the freeform input; custom_tool_call_output continues", async () => {
    const test = await startTestGateway();
    const client = clientFor(test.url, "custom");
    const first = await client.responses.create({
      model: "toolsift",
      input: 'call:apply_patch {"input":"*** Begin Patch\\n*** End Patch"}',
      tools: AGENT_TOOLS,
    });
    expect(first.output).toEqual([
      {
        type: "custom_tool_call",
        id: expect.stringMatching(/^ctc_/u),
        call_id: expect.any(String),
        name: "apply_patch",
        input: "*** Begin Patch\n*** End Patch",
        status: "completed",
      },
    ]);
    const call = first.output[0];
    if (call?.type !== "custom_tool_call") throw new Error("expected a custom_tool_call");
    const second = await client.responses.create({
      model: "toolsift",
      previous_response_id: first.id,
      input: [{ type: "custom_tool_call_output", call_id: call.call_id, output: "Done!" }],
      tools: AGENT_TOOLS,
    });
    expect(second.output_text).toBe("tool said: Done!");
  });

  it("streams namespaced and custom calls with their own item types and events", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url, "streamed");
    const namespaced = await collect(
      await client.responses.create({
        model: "toolsift",
        input: 'call:multi_agent_v1__spawn_agent {"message":"hi"}',
        tools: AGENT_TOOLS,
        stream: true,
      }),
    );
    const added = namespaced.find((event) => event.type === "response.output_item.added");
    expect(added?.type === "response.output_item.added" && added.item).toMatchObject({
      type: "function_call",
      namespace: "multi_agent_v1",
      name: "spawn_agent",
      arguments: "",
    });
    const argumentsDone = namespaced.find((event) => event.type === "response.function_call_arguments.done");
    expect(argumentsDone).toMatchObject({ name: "spawn_agent", arguments: '{"message":"hi"}' });
    const completed = namespaced.at(-1);
    expect(completed?.type).toBe("response.completed");
    if (completed?.type !== "response.completed") return;
    expect(completed.response.output[0]).toMatchObject({
      type: "function_call",
      namespace: "multi_agent_v1",
    });

    const custom = await collect(
      await client.responses.create({
        model: "toolsift",
        input: 'call:apply_patch {"input":"patch text"}',
        tools: AGENT_TOOLS,
        stream: true,
      }),
    );
    expect(custom.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.custom_tool_call_input.delta",
      "response.custom_tool_call_input.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const done = custom.find((event) => event.type === "response.output_item.done");
    expect(done?.type === "response.output_item.done" && done.item).toMatchObject({
      type: "custom_tool_call",
      name: "apply_patch",
      input: "patch text",
    });
    const last = custom.at(-1);
    expect(last?.type === "response.completed" && last.response.output[0]).toMatchObject({
      type: "custom_tool_call",
      input: "patch text",
    });
  });

  it("logs a hosted tool left out once per agent and type, not per request", async () => {
    const test = await startTestGateway();
    const tools = [{ type: "web_search" }, { type: "file_search", vector_store_ids: [] }];
    for (const agent of ["main", "main", "helper"]) {
      const response = await test.post(
        "/v1/responses",
        { input: "hi", tools },
        { "x-toolsift-agent": agent },
      );
      expect(response.status).toBe(200);
    }
    const lines = test.logs.filter((line) => line.includes("is left out of the model's request"));
    expect(lines).toHaveLength(4);
    expect(lines.filter((line) => line.startsWith("agent main:"))).toHaveLength(2);
    expect(
      lines.filter((line) => line.startsWith("agent helper:") && line.includes('"web_search"')),
    ).toHaveLength(1);
  });

  it("refuses a hosted tool under gateway.hostedTools reject, naming the tool and the setting, before any run", async () => {
    const test = await startTestGateway({ hostedTools: "reject" });
    const response = await test.post("/v1/responses", { input: "hi", tools: AGENT_TOOLS });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ param: "tools[3].type", code: "unsupported_tool_type" });
    expect(error.message).toContain('"web_search"');
    expect(error.message).toContain("gateway.hostedTools");
    expect(test.runner.requests).toHaveLength(0);
  });
});
