import Anthropic from "@anthropic-ai/sdk";
import { Agent, OpenAIResponsesModel, run, tool } from "@openai/agents";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import {
  clientTool,
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
} from "../../runtime/runner/runner.test-support.js";
import { type StartedGateway, startGateway } from "./start-gateway.js";

// One conversation is one session, for clients that resend their whole history and name no toolsift session:
// the official `openai` and `@anthropic-ai/sdk` clients as stateless agents use them, and the OpenAI Agents
// SDK. Real parts: the gateway over HTTP on 127.0.0.1, the real runner with Tool Search on (`tools` mode) and
// file sessions, the mock OpenAI provider over HTTP. The mock reaches the client tool `paint_fence` through
// tool_search and `tool_call`, so the model's own turns (tool_search, tool_call) differ from what the client
// sees (a call to `paint_fence`).

let harness: RunnerHarness | undefined;
let started: StartedGateway | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
  await harness?.close();
  harness = undefined;
});

const PAINT = clientTool("paint_fence", "Paint the garden fence in a colour.");
const OPENING = "please target=paint_fence";
const CLIENT_OUTPUT = "Fence painted green.";

async function start(): Promise<{ url: string; harness: RunnerHarness }> {
  harness = await createRunnerHarness({ toolSearch: { mode: "tools" } });
  started = await startGateway({
    runner: harness.runner,
    sessions: harness.sessions,
    port: 0,
    log: () => {},
  });
  return { url: started.url, harness };
}

type ProviderItem = Record<string, unknown>;

/** The input of the provider request that carried the client's tool output. */
function providerInputWithOutput(test: RunnerHarness, output: string): ProviderItem[] {
  const body = test.mockBodies().find((candidate) => JSON.stringify(candidate.input).includes(output)) as
    | { input: ProviderItem[] }
    | undefined;
  expect(body).toBeDefined();
  return body?.input ?? [];
}

/** The model's own earlier turn is in the provider's history; the client's reconstruction of it is not. */
function expectModelTurnsAsMade(input: readonly ProviderItem[], callId: string): void {
  const calls = input.filter((item) => item.type === "function_call");
  expect(calls.find((item) => item.call_id === callId)?.name).toBe("tool_call");
  expect(calls.map((item) => item.name)).not.toContain("paint_fence");
  expect(calls.map((item) => item.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
}

const responsesTools = [
  {
    type: "function" as const,
    name: PAINT.name,
    description: PAINT.description,
    parameters: PAINT.parameters as Record<string, unknown>,
    strict: false,
  },
];

describe("the official openai client, no session header, resending its history", () => {
  it("N requests of one conversation with a client tool round trip leave one session; another conversation another", async () => {
    const { url, harness: test } = await start();
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    const sessionsSeen: string[] = [];
    const ask = async (input: OpenAI.Responses.ResponseInput) => {
      const { data, response } = await client.responses
        .create({ model: "toolsift", input, tools: responsesTools })
        .withResponse();
      sessionsSeen.push(response.headers.get("x-toolsift-session") ?? "");
      return data;
    };

    // 1: the model finds paint_fence and reaches it through tool_call; the client gets a paint_fence call.
    const history: OpenAI.Responses.ResponseInput = [{ role: "user", content: OPENING }];
    const first = await ask(history);
    const handed = first.output.find((item) => item.type === "function_call");
    expect(handed).toMatchObject({ type: "function_call", name: "paint_fence" });
    if (handed?.type !== "function_call") throw new Error("no client tool call");

    // 2: the client resends everything with its tool output (its own reconstruction of the call).
    history.push(
      { type: "function_call", call_id: handed.call_id, name: handed.name, arguments: handed.arguments },
      { type: "function_call_output", call_id: handed.call_id, output: CLIENT_OUTPUT },
    );
    const second = await ask(history);
    expect(second.output_text).toContain(CLIENT_OUTPUT);
    expectModelTurnsAsMade(providerInputWithOutput(test, CLIENT_OUTPUT), handed.call_id);

    // 3: a follow-up after the answer.
    history.push({ role: "assistant", content: second.output_text }, { role: "user", content: "thanks" });
    const third = await ask(history);
    expect(third.output_text).toBe("mock: thanks");
    const requestsBefore = test.mockBodies().length;

    // 4: the same request again (a client retrying): the same answer, no model request, nothing logged.
    const retried = await ask(history);
    expect(retried.output_text).toBe(third.output_text);
    expect(test.mockBodies()).toHaveLength(requestsBefore);

    expect(new Set(sessionsSeen).size).toBe(1);
    const [sessionKey] = sessionsSeen;
    expect(sessionKey).toMatch(/^fp-[0-9a-f]{24}$/u);
    expect((await test.sessions.list()).map((session) => session.sessionKey)).toEqual([sessionKey]);
    const events = await test.events(sessionKey ?? "");
    // Each item the client sent is logged once, in the run that first saw it.
    expect(eventsOfType(events, "user-input").map((event) => event.items)).toEqual([
      [{ type: "message", role: "user", text: OPENING }],
      [{ type: "function_call_output", callId: handed.call_id, output: CLIENT_OUTPUT }],
      [{ type: "message", role: "user", text: "thanks" }],
    ]);
    expect(eventsOfType(events, "run-summary").map((event) => event.status)).toEqual([
      "requires_action",
      "completed",
      "completed",
    ]);

    // Another conversation (another opening) is another session.
    await ask([{ role: "user", content: "something else entirely" }]);
    expect(sessionsSeen.at(-1)).not.toBe(sessionKey);
    expect(await test.sessions.list()).toHaveLength(2);
  });
});

describe("a Claude-Code-like conversation over @anthropic-ai/sdk (x-claude-code-session-id, streamed)", () => {
  it("keys the session by Claude Code's session id and replays the model's own tool_call", async () => {
    const { url, harness: test } = await start();
    const sessionId = "0538fb8f-d4c6-4908-b4b3-46b669abc44e";
    const client = new Anthropic({
      baseURL: url,
      apiKey: "unused",
      maxRetries: 0,
      defaultHeaders: { "x-claude-code-session-id": sessionId },
    });
    const metadata = { user_id: JSON.stringify({ device_id: "d", account_uuid: "", session_id: sessionId }) };
    const tools = [
      { name: PAINT.name, description: PAINT.description, input_schema: PAINT.parameters as never },
    ];
    const system = "You are Claude Code.";
    const sessionsSeen: string[] = [];
    const ask = async (messages: Anthropic.MessageParam[]) => {
      const stream = client.messages.stream({
        model: "toolsift",
        max_tokens: 1024,
        system,
        tools,
        metadata,
        messages,
      });
      const message = await stream.finalMessage();
      const { response } = await stream.withResponse();
      sessionsSeen.push(response.headers.get("x-toolsift-session") ?? "");
      return message;
    };

    const messages: Anthropic.MessageParam[] = [{ role: "user", content: [{ type: "text", text: OPENING }] }];
    const first = await ask(messages);
    expect(first.stop_reason).toBe("tool_use");
    const toolUse = first.content.find((block) => block.type === "tool_use");
    if (toolUse?.type !== "tool_use") throw new Error("no tool_use");
    expect(toolUse.name).toBe("paint_fence");

    messages.push(
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: CLIENT_OUTPUT }] },
    );
    const second = await ask(messages);
    const answer = second.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    expect(answer).toContain(CLIENT_OUTPUT);
    expectModelTurnsAsMade(providerInputWithOutput(test, CLIENT_OUTPUT), toolUse.id);

    messages.push({ role: "assistant", content: second.content }, { role: "user", content: "and the gate?" });
    const third = await ask(messages);
    expect(third.content).toEqual([expect.objectContaining({ type: "text", text: "mock: and the gate?" })]);

    // Without the header, the session id inside metadata.user_id names the same session.
    const bare = new Anthropic({ baseURL: url, apiKey: "unused", maxRetries: 0 });
    messages.push({ role: "assistant", content: third.content }, { role: "user", content: "one more" });
    const { response: fourth } = await bare.messages
      .create({ model: "toolsift", max_tokens: 1024, system, tools, metadata, messages })
      .withResponse();
    sessionsSeen.push(fourth.headers.get("x-toolsift-session") ?? "");

    expect(sessionsSeen).toEqual(Array.from({ length: 4 }, () => `cc-${sessionId}`));
    expect((await test.sessions.list()).map((session) => session.sessionKey)).toEqual([`cc-${sessionId}`]);
    const inputs = eventsOfType(await test.events(`cc-${sessionId}`), "user-input");
    expect(inputs.map((event) => event.items.map((item) => item.type))).toEqual([
      ["message"],
      ["function_call_output"],
      ["message"],
      ["message"],
    ]);
  });
});

describe("a Codex-like conversation (prompt_cache_key only, store: false, streamed)", () => {
  it("keys the session by prompt_cache_key; an edited history continues on one branch of it", async () => {
    const { url, harness: test } = await start();
    const thread = "01a241eb-d03c-7491-b62b-16fa80ebad87";
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    const sessionsSeen: string[] = [];
    const ask = async (input: OpenAI.Responses.ResponseInput) => {
      const { data, response } = await client.responses
        .create({
          model: "toolsift",
          input,
          tools: responsesTools,
          prompt_cache_key: thread,
          store: false,
          stream: true,
        })
        .withResponse();
      sessionsSeen.push(response.headers.get("x-toolsift-session") ?? "");
      let text = "";
      for await (const event of data) if (event.type === "response.output_text.delta") text += event.delta;
      return text;
    };
    const developer = {
      role: "developer" as const,
      content: "You are a coding agent running in the Codex CLI.",
    };

    const history: OpenAI.Responses.ResponseInput = [developer, { role: "user", content: "say hi" }];
    const hi = await ask(history);
    history.push({ role: "assistant", content: hi }, { role: "user", content: "say bye" });
    const bye = await ask(history);
    expect(bye).toBe("mock: say bye");
    // Codex retrying the streamed request: the same text streams again, with no model request.
    const requestsBefore = test.mockBodies().length;
    expect(await ask(history)).toBe(bye);
    expect(test.mockBodies()).toHaveLength(requestsBefore);
    expect(sessionsSeen).toEqual([`pck-${thread}`, `pck-${thread}`, `pck-${thread}`]);
    expect(eventsOfType(await test.events(`pck-${thread}`), "user-input")).toHaveLength(2);

    // The user edits the first message: the history no longer matches the log, so it goes to a branch.
    const edited: OpenAI.Responses.ResponseInput = [
      developer,
      { role: "user", content: "say hello" },
      { role: "assistant", content: "mock: say hello" },
      { role: "user", content: "say bye" },
    ];
    await ask(edited);
    const branch = sessionsSeen.at(-1) ?? "";
    expect(branch).toMatch(new RegExp(`^pck-${thread}\\.b-[0-9a-f]{12}$`, "u"));
    edited.push({ role: "assistant", content: "mock: say bye" }, { role: "user", content: "again" });
    await ask(edited);
    expect(sessionsSeen.at(-1)).toBe(branch);
    // The original session is untouched; the branch logged the edited history once, then the new message.
    expect(eventsOfType(await test.events(`pck-${thread}`), "user-input")).toHaveLength(2);
    const branchInputs = eventsOfType(await test.events(branch), "user-input");
    expect(branchInputs.map((event) => event.items.length)).toEqual([3, 1]);
    expect((await test.sessions.list()).map((session) => session.sessionKey).sort()).toEqual(
      [`pck-${thread}`, branch].sort(),
    );
  });
});

describe("the OpenAI Agents SDK (stateless: it resends the history and runs its function tool itself)", () => {
  it("a multi-turn run with a tool round trip, then a follow-up turn, is one session", async () => {
    const { url, harness: test } = await start();
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    const paint = tool({
      name: PAINT.name,
      description: PAINT.description,
      parameters: {
        type: "object",
        properties: { note: { type: "string" } },
        required: ["note"],
        additionalProperties: false,
      },
      strict: true,
      execute: async () => CLIENT_OUTPUT,
    });
    const agent = new Agent({
      name: "painter",
      instructions: "Paint what you are asked to.",
      model: new OpenAIResponsesModel(client, "toolsift"),
      tools: [paint],
    });
    const first = await run(agent, OPENING);
    expect(String(first.finalOutput)).toContain(CLIENT_OUTPUT);
    const second = await run(agent, [...first.history, { role: "user", content: "and the gate?" }]);
    expect(second.finalOutput).toBe("mock: and the gate?");

    const sessions = await test.sessions.list();
    expect(sessions).toHaveLength(1);
    const events = await test.events(sessions[0]?.sessionKey ?? "");
    expect(eventsOfType(events, "user-input").map((event) => event.items.map((item) => item.type))).toEqual([
      ["message"],
      ["function_call_output"],
      ["message"],
    ]);
    const handoffs = eventsOfType(events, "run-summary").flatMap((event) => event.handoffs ?? []);
    expect(handoffs.map((handoff) => handoff.name)).toEqual(["paint_fence"]);
    expectModelTurnsAsMade(providerInputWithOutput(test, CLIENT_OUTPUT), handoffs[0]?.callId ?? "");
  });
});
