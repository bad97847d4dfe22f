import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAI } from "../../dev/mock-openai/index.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";
import type { AssembledRuntime } from "../cli/assemble-runtime.js";
import { createGateway } from "./create-gateway.js";
import { type MockRuntime, startMockRuntime } from "./mock-runtime.test-support.js";
import type { ResponsesObject, ResponsesOutputItem } from "./responses/responses-object.js";
import { parseSseFrames } from "./sse.test-support.js";
import type { GatewayListener } from "./types.js";

// The first request OpenAI's Codex CLI 0.171 sends (captured off the wire: the body unchanged, with its
// plain and namespaced function tools, hosted web_search, developer messages, reasoning and include fields,
// always streamed) replayed against a real gateway whose runtime the CLI assembles over the mock provider.

const FIXTURE = fileURLToPath(
  new URL("../../../test/fixtures/agents/codex-0.171-first-request.json", import.meta.url),
);

type CodexBody = { input: Array<Record<string, unknown>>; [key: string]: unknown };

let started: MockRuntime | undefined;
let mock: MockOpenAI;
let runtime: AssembledRuntime;
let listener: GatewayListener;
const logs: string[] = [];

beforeAll(async () => {
  started = await startMockRuntime("toolsift-codex-replay-");
  ({ mock, runtime } = started);
  const gateway = createGateway({
    runner: runtime.runner,
    sessions: runtime.environment.sessions,
    log: (line) => logs.push(line),
  });
  listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await listener?.close();
  await started?.close();
});

async function codexBody(): Promise<CodexBody> {
  return JSON.parse(await readFile(FIXTURE, "utf8")) as CodexBody;
}

/** POSTs a body as Codex does (its accept header, its JSON) and reads the stream's frames. */
async function post(
  body: unknown,
  session: string,
): Promise<{ status: number; events: Array<Record<string, unknown>> }> {
  const response = await fetch(`${listener.url}/v1/responses`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      authorization: "Bearer x",
      "x-toolsift-session": session,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, events: [{ body: text }] };
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  return {
    status: response.status,
    events: parseSseFrames(text).map((frame) => JSON.parse(frame.data) as Record<string, unknown>),
  };
}

function finalResponse(events: Array<Record<string, unknown>>): ResponsesObject {
  const last = events.at(-1);
  expect(last?.type).toBe("response.completed");
  return last?.response as ResponsesObject;
}

/** The last user message's text replaced, the rest of Codex's body as captured. */
function withUserText(body: CodexBody, text: string): CodexBody {
  const input = [...body.input];
  input[input.length - 1] = { type: "message", role: "user", content: [{ type: "input_text", text }] };
  return { ...body, input };
}

describe("Codex CLI 0.171's first request against a real gateway over the mock provider", () => {
  it("is accepted and answered as a stream; web_search is left out and reported", async () => {
    const before = mock.requests().length;
    const { status, events } = await post(await codexBody(), "codex-first");
    expect(status).toBe(200);
    expect(events[0]?.type).toBe("response.created");
    const response = finalResponse(events);
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(events.some((event) => event.type === "response.output_text.delta")).toBe(true);
    expect(response.toolsift).toEqual({ omitted_hosted_tools: ["web_search"] });

    // What the provider got: function tools only, the developer messages in the instructions.
    const sent = mock.requests().slice(before);
    expect(sent.length).toBeGreaterThan(0);
    const providerBody = JSON.parse(sent[0]?.body ?? "{}") as {
      instructions: string;
      tools: Array<{ type: string }>;
    };
    expect(providerBody.instructions).toContain("You are a coding agent running in the Codex CLI");
    expect(new Set(providerBody.tools.map((tool) => tool.type))).toEqual(new Set(["function"]));

    const log = await runtime.environment.sessions.read("main", "codex-first");
    const input = log.find(
      (event): event is Extract<SessionEvent, { type: "user-input" }> => event.type === "user-input",
    );
    expect(input?.omittedHostedTools).toEqual(["web_search"]);
    expect(logs.filter((line) => line.includes('"web_search"') && line.includes("left out"))).toHaveLength(1);
  });

  it("hands a namespaced tool the model reached through tool_call back in Codex's form, and its output continues", async () => {
    const body = withUserText(await codexBody(), "Spawn a helper. target=multi_agent_v1__spawn_agent");
    const first = await post(body, "codex-namespace");
    expect(first.status).toBe(200);
    const call = finalResponse(first.events).output.find(
      (item): item is Extract<ResponsesOutputItem, { type: "function_call" }> =>
        item.type === "function_call",
    );
    expect(call).toMatchObject({ namespace: "multi_agent_v1", name: "spawn_agent", status: "completed" });
    const added = first.events.find(
      (event) =>
        event.type === "response.output_item.added" &&
        (event.item as { type: string }).type === "function_call",
    );
    expect(added?.item).toMatchObject({ namespace: "multi_agent_v1", name: "spawn_agent" });
    if (call === undefined) return;

    // The model's own view in the log: it called tool_call, never a tool it was not given.
    const events = await runtime.environment.sessions.read("main", "codex-namespace");
    const modelCalls = events
      .flatMap((event) => (event.type === "assistant-output" ? event.items : []))
      .flatMap((item) => (item.type === "function_call" ? [{ name: item.name, callId: item.callId }] : []));
    expect(modelCalls).toContainEqual({ name: "tool_call", callId: call.call_id });
    expect(modelCalls.map((item) => item.name)).not.toContain("spawn_agent");

    // Codex resends everything statelessly, with its call and the output.
    const second = await post(
      {
        ...body,
        input: [
          ...body.input,
          { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque" },
          {
            type: "function_call",
            call_id: call.call_id,
            namespace: "multi_agent_v1",
            name: "spawn_agent",
            arguments: call.arguments,
          },
          { type: "function_call_output", call_id: call.call_id, output: "helper agent spawned: id 7" },
        ],
      },
      "codex-namespace",
    );
    expect(second.status).toBe(200);
    expect(finalResponse(second.events).output_text).toContain("helper agent spawned: id 7");
  });
});
