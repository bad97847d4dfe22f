import { describe, expect, it } from "vitest";
import { GatewayError } from "../gateway-error.js";
import { parseResponsesRequest } from "./parse-responses-request.js";

/** The param of the 400 a body gets. */
function refusedParam(body: unknown): unknown {
  try {
    parseResponsesRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    return (error as GatewayError).param;
  }
  throw new Error("expected a 400");
}

const USER = { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] };

describe("parseResponsesRequest: input items agents send", () => {
  it("reads developer messages with ids as instructions, and user messages with input_text parts", () => {
    const request = parseResponsesRequest({
      input: [
        {
          type: "message",
          id: "msg_1",
          role: "developer",
          content: [{ type: "input_text", text: "Be brief." }],
        },
        { type: "message", id: "msg_2", role: "system", content: "Be kind." },
        { type: "message", id: "msg_3", role: "user", content: [{ type: "input_text", text: "hi" }] },
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "yo", annotations: [] }],
        },
      ],
    });
    expect(request.instructions).toBe("Be brief.\n\nBe kind.");
    expect(request.items).toEqual([
      { type: "message", role: "user", text: "hi" },
      { type: "message", role: "assistant", text: "yo" },
    ]);
  });

  it.each<[string, unknown[], unknown[]]>([
    [
      "a reasoning item is dropped",
      [{ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "x" }],
      [],
    ],
    ["a web_search_call is dropped", [{ type: "web_search_call", id: "ws_1", status: "completed" }], []],
    ["an item_reference is dropped", [{ type: "item_reference", id: "msg_9" }], []],
    [
      "a namespaced function_call gets the model's name for it",
      [
        {
          type: "function_call",
          call_id: "c1",
          namespace: "multi_agent_v1",
          name: "spawn_agent",
          arguments: "{}",
        },
      ],
      [{ type: "function_call", callId: "c1", name: "multi_agent_v1__spawn_agent", arguments: "{}" }],
    ],
    [
      "a custom_tool_call becomes the model's call with its input",
      [{ type: "custom_tool_call", call_id: "c2", name: "apply_patch", input: "*** Begin Patch" }],
      [
        {
          type: "function_call",
          callId: "c2",
          name: "apply_patch",
          arguments: '{"input":"*** Begin Patch"}',
        },
      ],
    ],
    [
      "a custom_tool_call_output is the call's output",
      [{ type: "custom_tool_call_output", call_id: "c2", output: "Done!" }],
      [{ type: "function_call_output", callId: "c2", output: "Done!" }],
    ],
    [
      "a function_call_output of content parts keeps the text and notes the image",
      [
        {
          type: "function_call_output",
          call_id: "c3",
          output: [
            { type: "input_text", text: "line" },
            { type: "input_image", image_url: "data:image/png;base64,AAAA" },
          ],
        },
      ],
      [
        {
          type: "function_call_output",
          callId: "c3",
          output: "line\n[input_image omitted: toolsift passes text only]",
        },
      ],
    ],
    [
      "local shell calls and outputs are kept as a call and its output",
      [
        {
          type: "local_shell_call",
          id: "ls_1",
          call_id: "c4",
          status: "completed",
          action: { type: "exec", command: ["ls"] },
        },
        { type: "local_shell_call_output", id: "c4", output: "a.txt" },
      ],
      [
        {
          type: "function_call",
          callId: "c4",
          name: "local_shell",
          arguments: '{"type":"exec","command":["ls"]}',
        },
        { type: "function_call_output", callId: "c4", output: "a.txt" },
      ],
    ],
  ])("%s", (_name, items, expected) => {
    expect(parseResponsesRequest({ input: [...items, USER] }).items).toEqual([
      ...expected,
      { type: "message", role: "user", text: "go" },
    ]);
  });
});

describe("parseResponsesRequest: request fields", () => {
  it("accepts and ignores what Codex and the Agents SDK send, and fields it does not know", () => {
    const request = parseResponsesRequest({
      model: "toolsift",
      input: "hi",
      tool_choice: "auto",
      parallel_tool_calls: true,
      reasoning: { summary: "auto", effort: "low" },
      store: false,
      include: ["reasoning.encrypted_content"],
      prompt_cache_key: "k",
      client_metadata: { a: "b" },
      metadata: { c: "d" },
      text: { format: { type: "text" }, verbosity: "low" },
      truncation: "auto",
      service_tier: "auto",
      user: "u",
      safety_identifier: "s",
      top_p: 1,
      temperature: 0.2,
      max_tool_calls: 5,
      background: false,
      some_future_field: { anything: true },
    });
    expect(request.items).toEqual([{ type: "message", role: "user", text: "hi" }]);
    expect(request.store).toBe(false);
    for (const choice of [
      "none",
      "required",
      { type: "function", name: "f" },
      { type: "allowed_tools", mode: "auto", tools: [] },
      { type: "web_search" },
    ]) {
      expect(parseResponsesRequest({ input: "hi", tool_choice: choice }).items).toHaveLength(1);
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["include not a list of strings", { include: "x" }, "include"],
    ["metadata not an object", { metadata: "x" }, "metadata"],
    ["client_metadata an array", { client_metadata: [] }, "client_metadata"],
    ["parallel_tool_calls not a boolean", { parallel_tool_calls: "yes" }, "parallel_tool_calls"],
    ["temperature a string", { temperature: "hot" }, "temperature"],
    ["max_tool_calls 0", { max_tool_calls: 0 }, "max_tool_calls"],
    ["text.format a string", { text: { format: "json" } }, "text.format"],
    ["text.verbosity a number", { text: { verbosity: 1 } }, "text.verbosity"],
    ["tool_choice an unknown word", { tool_choice: "sometimes" }, "tool_choice"],
    ["tool_choice an object without type", { tool_choice: { name: "f" } }, "tool_choice"],
    ["background true", { background: true }, "background"],
    [
      "a custom_tool_call without input",
      { input: [{ type: "custom_tool_call", call_id: "c", name: "n" }] },
      "input[0].input",
    ],
    [
      "a function_call with a namespace that is not a string",
      { input: [{ type: "function_call", call_id: "c", name: "n", namespace: 1, arguments: "{}" }] },
      "input[0].namespace",
    ],
    [
      "a local_shell_call_output naming no call",
      { input: [{ type: "local_shell_call_output", output: "x" }] },
      "input[0].id",
    ],
    [
      "a function_call_output part without a type",
      { input: [{ type: "function_call_output", call_id: "c", output: [{ text: "x" }] }] },
      "input[0].output[0]",
    ],
  ])("refuses %s with a 400 naming the param", (_name, fields, param) => {
    expect(refusedParam({ input: "hi", ...fields })).toBe(param);
  });
});
