import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderRequest } from "../../../runtime/providers/index.js";
import {
  assistantSays,
  createRunnerHarness,
  functionCall,
  type RunnerHarness,
  scriptedProvider,
} from "../../../runtime/runner/runner.test-support.js";
import { createGateway } from "../create-gateway.js";
import type { GatewayListener } from "../types.js";

// Claude Code's own tools are client tools of the run. When the model reaches one, through Tool Search's
// `tool_call` (tools mode) or by its declared name (directory mode), the official `@anthropic-ai/sdk` client
// gets a `tool_use` block for the client's tool name with the target's arguments as `input`, whole or
// streamed, and its `tool_result` continues the run. A real runner over a scripted provider, a real gateway.

const READ_TOOL = {
  name: "Read",
  description: "Read a file from the local filesystem.",
  input_schema: {
    type: "object" as const,
    properties: { file_path: { type: "string" } },
    required: ["file_path"],
  },
};
const ARGS = { file_path: "/tmp/notes.txt" };

let harness: RunnerHarness | undefined;
let listener: GatewayListener | undefined;
afterEach(async () => {
  await listener?.close();
  await harness?.close();
  listener = undefined;
  harness = undefined;
});

/** The last function_call_output the provider was sent, as the model reads it. */
function lastOutput(request: ProviderRequest): string {
  const last = request.input.at(-1);
  return last?.type === "function_call_output" ? last.output : "(no tool output)";
}

/** A gateway over a real runner whose model reaches the client's Read tool in its first answer. */
async function start(
  mode: "tools" | "directory",
): Promise<{ client: Anthropic; provider: ReturnType<typeof scriptedProvider> }> {
  const provider = scriptedProvider((request, index) => {
    if (index === 0) {
      return mode === "tools"
        ? [functionCall("call_target_1", "tool_call", { id: "client:client:Read", args: ARGS })]
        : [functionCall("call_direct_1", "Read", ARGS)];
    }
    return [assistantSays(`The file says: ${lastOutput(request)}`)];
  });
  harness = await createRunnerHarness({ provider, toolSearch: { mode } });
  const gateway = createGateway({ runner: harness.runner, sessions: harness.sessions, log: () => {} });
  listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  return { client: new Anthropic({ baseURL: listener.url, apiKey: "unused", maxRetries: 0 }), provider };
}

describe.each(["tools", "directory"] as const)(
  "%s mode: a client tool round trip in Anthropic form",
  (mode) => {
    const callId = mode === "tools" ? "call_target_1" : "call_direct_1";

    it.each([false, true])(
      "streamed: %s — tool_use with the target's input, then the tool_result continues",
      async (streamed) => {
        const { client, provider } = await start(mode);
        const session = { headers: { "x-toolsift-session": `read-${mode}-${streamed}` } };
        const messages: MessageParam[] = [{ role: "user", content: "What is in /tmp/notes.txt?" }];
        const ask = async (list: MessageParam[]) => {
          const request = { model: "toolsift", max_tokens: 1024, messages: list, tools: [READ_TOOL] };
          if (!streamed) return client.messages.create(request, session);
          const { parsed_output: _parsed, ...final } = await client.messages
            .stream(request, session)
            .finalMessage();
          return final;
        };
        const first = await ask(messages);
        expect(first.stop_reason).toBe("tool_use");
        expect(first.content).toEqual([{ type: "tool_use", id: callId, name: "Read", input: ARGS }]);

        messages.push(
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: callId, content: "buy milk" }] },
        );
        const second = await ask(messages);
        expect(second.stop_reason).toBe("end_turn");
        expect(second.content).toEqual([{ type: "text", text: "The file says: buy milk" }]);
        // The model's own call (tool_call or Read) got the client's output under its id.
        const replayed = provider.requests[1]?.input ?? [];
        expect(replayed.at(-2)).toMatchObject({
          type: "function_call",
          callId,
          name: mode === "tools" ? "tool_call" : "Read",
        });
        expect(replayed.at(-1)).toEqual({ type: "function_call_output", callId, output: "buy milk" });
      },
    );

    it("create({ stream: true }): content_block_start tool_use, one input_json_delta with the input, stop_reason tool_use", async () => {
      const { client } = await start(mode);
      const stream = await client.messages.create({
        model: "toolsift",
        max_tokens: 1024,
        messages: [{ role: "user", content: "What is in /tmp/notes.txt?" }],
        tools: [READ_TOOL],
        stream: true,
      });
      const events: RawMessageStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      expect(events.map((event) => event.type)).toEqual([
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]);
      expect(events[1]).toEqual({
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: callId, name: "Read", input: {} },
      });
      expect(events[2]).toEqual({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(ARGS) },
      });
      expect(events[4]).toMatchObject({ type: "message_delta", delta: { stop_reason: "tool_use" } });
    });
  },
);

describe("a client without a session header (Claude Code) resends the whole conversation", () => {
  it("the tool_result of a call made through tool_call still reaches the model under the call's id", async () => {
    const { client, provider } = await start("tools");
    const messages: MessageParam[] = [{ role: "user", content: "What is in /tmp/notes.txt?" }];
    const request = { model: "toolsift", max_tokens: 1024, tools: [READ_TOOL] };
    const first = await client.messages.create({ ...request, messages });
    expect(first.content).toEqual([{ type: "tool_use", id: "call_target_1", name: "Read", input: ARGS }]);
    messages.push(
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_target_1", content: "buy milk" }] },
    );
    const second = await client.messages.create({ ...request, messages });
    expect(second.content).toEqual([{ type: "text", text: "The file says: buy milk" }]);
    // The same session (its fingerprint): the model sees its own tool_call, not the client's record of it.
    expect(provider.requests[1]?.input).toEqual([
      { type: "message", role: "user", text: "What is in /tmp/notes.txt?" },
      {
        type: "function_call",
        callId: "call_target_1",
        name: "tool_call",
        arguments: JSON.stringify({ id: "client:client:Read", args: ARGS }),
      },
      { type: "function_call_output", callId: "call_target_1", output: "buy milk" },
    ]);
  });
});
