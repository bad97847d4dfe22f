import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockOpenAI } from "../../../dev/mock-openai/index.js";
import type { AssembledRuntime } from "../../cli/assemble-runtime.js";
import { createGateway } from "../create-gateway.js";
import { type MockRuntime, startMockRuntime } from "../mock-runtime.test-support.js";
import { frameData, readSseFrames } from "../sse.test-support.js";
import type { GatewayListener } from "../types.js";
import { anthropicError } from "./anthropic-error.test-support.js";
import { parseMessagesRequest } from "./parse-messages-request.js";

// Claude Code against a real gateway: the runtime the CLI assembles (config file, the example weather plugin,
// a file session store) over `toolsift mock-openai`, on 127.0.0.1 with ephemeral ports. A request Claude Code
// 2.1 really sent (`test/fixtures/agents/claude-code-request.json`: its URL with `?beta=true`, its headers and
// body: 24 client tools, `system` blocks with `cache_control`, `thinking`, `context_management`,
// `output_config`, `metadata`, a system message) is replayed byte for byte and streamed; `count_tokens`
// answers for the same body; hosted tools are left out of the provider request and noted in the session log.

const FIXTURE = JSON.parse(
  readFileSync(new URL("../../../../test/fixtures/agents/claude-code-request.json", import.meta.url), "utf8"),
) as { method: string; url: string; headers: Record<string, string>; body: Record<string, unknown> };
const TOKEN = "gateway-token-for-tests";

let started: MockRuntime | undefined;
let mock: MockOpenAI;
let runtime: AssembledRuntime;
let url: string;
let guardedUrl: string;
const listeners: GatewayListener[] = [];

beforeAll(async () => {
  started = await startMockRuntime("toolsift-claude-code-e2e-");
  ({ mock, runtime } = started);
  const open = createGateway({
    runner: runtime.runner,
    sessions: runtime.environment.sessions,
    log: () => {},
  });
  const guarded = createGateway({
    runner: runtime.runner,
    sessions: runtime.environment.sessions,
    authToken: TOKEN,
    log: () => {},
  });
  for (const gateway of [open, guarded]) listeners.push(await gateway.listen({ port: 0, host: "127.0.0.1" }));
  url = listeners[0]?.url ?? "";
  guardedUrl = listeners[1]?.url ?? "";
});

afterAll(async () => {
  for (const listener of listeners) await listener.close();
  await started?.close();
});

/** The mock's recorded request bodies since `after` requests, parsed. */
function mockBodiesAfter(after: number): Array<Record<string, unknown>> {
  return mock
    .requests()
    .slice(after)
    .map((request) => JSON.parse(request.body) as Record<string, unknown>);
}

describe("a request Claude Code 2.1 sent, replayed with its headers", () => {
  it("is answered as a stream of Anthropic events ending message_stop; its tools reach the model as function tools", async () => {
    const before = mock.requests().length;
    const response = await fetch(`${url}${FIXTURE.url}`, {
      method: FIXTURE.method,
      headers: { ...FIXTURE.headers, "x-toolsift-session": "claude-code-replay" },
      body: JSON.stringify(FIXTURE.body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const frames = await readSseFrames(response);
    const events = frameData(frames);
    expect(frames[0]?.event).toBe("message_start");
    expect(frames.at(-1)?.event).toBe("message_stop");
    expect(frames.some((frame) => frame.event === "error")).toBe(false);
    const text = events
      .flatMap((event) => {
        const delta = event.delta as { type?: string; text?: string } | undefined;
        return delta?.type === "text_delta" ? [delta.text ?? ""] : [];
      })
      .join("");
    expect(text.length).toBeGreaterThan(0);
    expect(events.find((event) => event.type === "message_delta")).toMatchObject({
      delta: { stop_reason: "end_turn" },
    });

    const [sent] = mockBodiesAfter(before);
    // Claude Code's system blocks and system message are the run's instructions, after the agent's prompt.
    expect(String(sent?.instructions)).toContain(
      "You are a Claude agent, built on Anthropic's Claude Agent SDK.",
    );
    expect(String(sent?.instructions)).toContain("Available agent types for the Agent tool:");
    expect(JSON.stringify(sent?.input)).toContain("say hi");
    // Nothing Anthropic-only reaches the OpenAI provider.
    for (const field of [
      "cache_control",
      "thinking",
      "context_management",
      "output_config",
      "defer_loading",
    ]) {
      expect(JSON.stringify(sent)).not.toContain(`"${field}"`);
    }
    // The agent runs in tools mode: the 24 client tools sit behind Tool Search's controls, not declared.
    const declared = ((sent?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
    expect(declared.slice(0, 3)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    const clientNames = (FIXTURE.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(clientNames).toHaveLength(24);
    expect(declared.filter((name) => clientNames.includes(name))).toEqual([]);
    const inputs = (await runtime.environment.sessions.read("main", "claude-code-replay")).filter(
      (event) => event.type === "user-input",
    );
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).not.toHaveProperty("omittedHostedTools");
  });

  it("the same body on /v1/messages/count_tokens: the runner's estimate of that run's first request", async () => {
    const { stream: _stream, max_tokens: _max, ...countBody } = FIXTURE.body;
    const response = await fetch(`${url}/v1/messages/count_tokens?beta=true`, {
      method: "POST",
      headers: FIXTURE.headers,
      body: JSON.stringify(countBody),
    });
    expect(response.status).toBe(200);
    const counted = (await response.json()) as { input_tokens: number };
    expect(Object.keys(counted)).toEqual(["input_tokens"]);
    const parsed = parseMessagesRequest(FIXTURE.body);
    const expected = await runtime.runner.countInputTokens?.({
      agentId: "main",
      input: parsed.items,
      ...(parsed.instructions === undefined ? {} : { instructions: parsed.instructions }),
      clientTools: parsed.clientTools,
    });
    expect(counted.input_tokens).toBe(expected);
    // At least the client's own system prompt and tools (76 KB of them), by the estimate's 3 bytes a token.
    expect(counted.input_tokens).toBeGreaterThan(JSON.stringify(FIXTURE.body.system).length / 4);
  });
});

describe("POST /v1/messages/count_tokens", () => {
  const client = () => new Anthropic({ baseURL: url, apiKey: "unused", maxRetries: 0 });
  const BASE = { model: "toolsift", messages: [{ role: "user" as const, content: "What is the weather?" }] };

  it("through the official client: more messages, tools or system text count more; no run, no provider request", async () => {
    const before = mock.requests().length;
    const sessionsBefore = (await runtime.environment.sessions.list()).length;
    const plain = await client().messages.countTokens(BASE);
    expect(plain.input_tokens).toBeGreaterThan(0);
    const withSystem = await client().messages.countTokens({ ...BASE, system: "x".repeat(3000) });
    expect(withSystem.input_tokens).toBeGreaterThanOrEqual(plain.input_tokens + 1000);
    const withTool = await client().beta.messages.countTokens({
      ...BASE,
      tools: [{ name: "Read", description: "Read a file. ".repeat(100), input_schema: { type: "object" } }],
      betas: ["token-counting-2024-11-01"],
    });
    expect(withTool.input_tokens).toBeGreaterThan(plain.input_tokens);
    expect(mock.requests().length).toBe(before);
    expect((await runtime.environment.sessions.list()).length).toBe(sessionsBefore);
  });

  it.each([
    ["no messages", { model: "toolsift" }, 400, "invalid_request_error", "messages is required"],
    ["an unknown agent", { ...BASE, model: "toolsift/nobody" }, 404, "not_found_error", "unknown agent"],
    ["a bad tool name", { ...BASE, tools: [{ name: "a b" }] }, 400, "invalid_request_error", "tools[0].name"],
  ])("%s → %i %s in Anthropic's shape", async (_name, body, status, type, fragment) => {
    const response = await fetch(`${url}/v1/messages/count_tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(status);
    const error = await anthropicError(response);
    expect(error.type).toBe(type);
    expect(error.message).toContain(fragment);
  });

  it("is guarded like every route: no key → 401 authentication_error; x-api-key or a bearer token → counted", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${guardedUrl}/v1/messages/count_tokens`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(BASE),
      });
    const refused = await post({});
    expect(refused.status).toBe(401);
    expect(await anthropicError(refused)).toMatchObject({ type: "authentication_error" });
    expect((await post({ "x-api-key": "wrong" })).status).toBe(401);
    expect((await post({ "x-api-key": TOKEN })).status).toBe(200);
    const viaClient = new Anthropic({ baseURL: guardedUrl, apiKey: TOKEN, maxRetries: 0 });
    expect((await viaClient.messages.countTokens(BASE)).input_tokens).toBeGreaterThan(0);
    const textPlain = await fetch(`${guardedUrl}/v1/messages/count_tokens`, {
      method: "POST",
      headers: { "content-type": "text/plain", "x-api-key": TOKEN },
      body: JSON.stringify(BASE),
    });
    expect(textPlain.status).toBe(415);
  });
});

describe("hosted tools on a real run", () => {
  it("are left out of the provider request and noted on the session log's user-input line", async () => {
    const before = mock.requests().length;
    const client = new Anthropic({
      baseURL: url,
      apiKey: "unused",
      maxRetries: 0,
      defaultHeaders: { "x-toolsift-session": "hosted-tools" },
    });
    const answer = await client.messages.create({
      model: "toolsift",
      max_tokens: 512,
      messages: [{ role: "user", content: "hi" }],
      tools: [
        { type: "web_search_20250305", name: "web_search", max_uses: 3 },
        { type: "bash_20250124", name: "bash" },
        { name: "Read", description: "Read a file.", input_schema: { type: "object" } },
      ],
    });
    expect(answer.stop_reason).toBe("end_turn");
    const sent = JSON.stringify(mockBodiesAfter(before));
    expect(sent).not.toContain("web_search");
    expect(sent).not.toContain("bash_20250124");
    const input = (await runtime.environment.sessions.read("main", "hosted-tools")).find(
      (event) => event.type === "user-input",
    );
    expect(input).toMatchObject({ omittedHostedTools: ["web_search_20250305", "bash_20250124"] });
  });
});
