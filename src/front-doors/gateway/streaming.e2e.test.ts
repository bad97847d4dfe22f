import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY, type GatewayProcess, startGatewayProcess } from "../../dev/qa/start-gateway-process.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";
import { freePort } from "./ports.test-support.js";
import type { ResponsesObject } from "./responses/responses-object.js";
import { parseSseFrames, withoutRunIdentity } from "./sse.test-support.js";

// Streaming with a real runner: the built CLI (`npm run build` first) as two child processes, `toolsift
// mock-openai` and `toolsift gateway` with the example weather plugin, driven by the official `openai`
// client and the AI SDK. A second gateway points at a port nobody listens on (the provider fails mid-run),
// a third at a provider that never answers (the client leaves mid-stream).

const EXAMPLE_PLUGINS = fileURLToPath(new URL("../../../examples/plugins", import.meta.url));
const QUESTION = "What is the weather in Berlin tomorrow? target=get_forecast";

let root: string;
let mock: { url: string; child: ChildProcess };
const gateways: GatewayProcess[] = [];

/** Starts `toolsift mock-openai --port 0` and waits for the address it prints. */
function startMock(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI_ENTRY, "mock-openai", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const url = /listening on (\S+)/u.exec(stdout)?.[1];
      if (url !== undefined) resolve({ url, child });
    });
    child.once("exit", (code) => reject(new Error(`toolsift mock-openai exited with ${code}`)));
  });
}

/** Starts `toolsift gateway` on a config whose provider is at `baseUrl`. */
async function startGateway(name: string, baseUrl: string, extra: Record<string, unknown> = {}) {
  const dir = join(root, name);
  const config = {
    models: {
      providers: { mock: { api: "openai-responses", baseUrl, apiKey: "mock-key", maxRetries: 0, ...extra } },
    },
    agents: { defaults: { model: "mock/toolsift-mock" } },
    plugins: { load: { paths: [EXAMPLE_PLUGINS] } },
  };
  const configPath = join(root, `${name}.json`);
  await writeFile(configPath, JSON.stringify(config));
  const gateway = await startGatewayProcess({
    configPath,
    env: {
      ...process.env,
      TOOLSIFT_HOME: dir,
      TOOLSIFT_STATE_DIR: join(dir, "state"),
      TOOLSIFT_CONFIG: configPath,
    },
  });
  gateways.push(gateway);
  return gateway;
}

const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function sessionEvents(url: string, session: string): Promise<SessionEvent[]> {
  const response = await fetch(`${url}/v1/sessions/${session}?agent=main`);
  if (response.status === 404) return [];
  return ((await response.json()) as { events: SessionEvent[] }).events;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-stream-e2e-"));
  mock = await startMock();
});

afterAll(async () => {
  for (const gateway of gateways) await gateway.stop();
  mock?.child.kill("SIGTERM");
  await rm(root, { recursive: true, force: true });
});

describe("streaming from a real gateway over the mock provider (built CLI)", () => {
  let gateway: GatewayProcess;
  beforeAll(async () => {
    gateway = await startGateway("main", mock.url);
  });

  it("Responses: the streamed final response equals the whole one and GET /v1/responses/:id", async () => {
    const client = clientFor(gateway.url);
    const whole = await (
      await fetch(`${gateway.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "toolsift", input: QUESTION }),
      })
    ).json();
    const events = await collect(
      await client.responses.create({ model: "toolsift", input: QUESTION, stream: true }),
    );
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    expect(events[0]?.type).toBe("response.created");
    const completed = events.at(-1) as { type: string; response: ResponsesObject };
    expect(completed.type).toBe("response.completed");
    expect(completed.response.output_text).toContain("Forecast for qa");
    expect(withoutRunIdentity(completed.response, { tokens: true })).toEqual(
      withoutRunIdentity(whole, { tokens: true }),
    );
    const deltas = events
      .filter((event) => event.type === "response.output_text.delta")
      .map((event) => event.delta);
    expect(deltas.join("")).toBe(completed.response.output_text);
    const stored = await fetch(`${gateway.url}/v1/responses/${completed.response.id}`);
    expect(await stored.json()).toEqual(completed.response);
    // Server-side tool activity (the search, the call) never shows up as items or text.
    expect(completed.response.output.every((item) => item.type === "message")).toBe(true);
  });

  it("Responses: responses.stream() + finalResponse()", async () => {
    const final = await clientFor(gateway.url)
      .responses.stream({ model: "toolsift", input: QUESTION })
      .finalResponse();
    expect(final.status).toBe("completed");
    expect(final.output_text).toContain("Forecast for qa, 1 day(s) ahead");
  });

  it("Chat: chat.completions.stream() + finalChatCompletion(), and create() with include_usage", async () => {
    const client = clientFor(gateway.url);
    const messages = [{ role: "user" as const, content: QUESTION }];
    const whole = await client.chat.completions.create({ model: "toolsift", messages });
    const final = await client.chat.completions.stream({ model: "toolsift", messages }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(whole.choices[0]?.message.content);
    expect(final.choices[0]?.finish_reason).toBe("stop");
    const chunks = [];
    // Its own session: the same question again in one session would be a repeat, answered from the log
    // without a model request (no tokens).
    for await (const chunk of await client.chat.completions.create(
      { model: "toolsift", messages, stream: true, stream_options: { include_usage: true } },
      { headers: { "x-toolsift-session": "e2e-chat-usage" } },
    )) {
      chunks.push(chunk);
    }
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("hands a client tool call back on both APIs, and the next streamed turn answers with its output", async () => {
    const client = clientFor(gateway.url);
    const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const input = "Which city am I in? target=locate_user";
    const responses = await client.responses
      .stream({
        model: "toolsift",
        input,
        tools: [{ type: "function", name: "locate_user", parameters, strict: false }],
      })
      .finalResponse();
    const call = responses.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ type: "function_call", name: "locate_user", arguments: '{"city":"qa"}' });
    const answered = await client.responses
      .stream({
        model: "toolsift",
        previous_response_id: responses.id,
        input: [{ type: "function_call_output", call_id: String(call?.call_id), output: "Lyon" }],
      })
      .finalResponse();
    expect(answered.status).toBe("completed");
    expect(answered.output_text).toContain("Lyon");

    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: input }];
    const tools = [{ type: "function" as const, function: { name: "locate_user", parameters } }];
    const headers = { "x-toolsift-session": "e2e-chat-client-tool" };
    const chat = await client.chat.completions
      .stream({ model: "toolsift", messages, tools }, { headers })
      .finalChatCompletion();
    expect(chat.choices[0]?.finish_reason).toBe("tool_calls");
    const toolCall = chat.choices[0]?.message.tool_calls?.[0];
    expect(toolCall).toMatchObject({
      type: "function",
      function: { name: "locate_user", arguments: '{"city":"qa"}' },
    });
    messages.push(chat.choices[0]?.message as OpenAI.ChatCompletionMessageParam, {
      role: "tool",
      tool_call_id: String(toolCall?.id),
      content: "Lyon",
    });
    const chatAnswer = await client.chat.completions
      .stream({ model: "toolsift", messages, tools }, { headers })
      .finalChatCompletion();
    expect(chatAnswer.choices[0]?.message.content).toContain("Lyon");
  });

  it.each(["responses", "chat", "anthropic"] as const)(
    "the AI SDK: generateText and streamText through its %s model",
    async (api) => {
      const openai = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "unused-on-loopback" });
      const anthropic = createAnthropic({ baseURL: `${gateway.url}/v1`, apiKey: "unused-on-loopback" });
      const model =
        api === "responses"
          ? openai.responses("toolsift")
          : api === "chat"
            ? openai.chat("toolsift")
            : anthropic("toolsift");
      const generated = await generateText({ model, prompt: QUESTION, maxRetries: 0 });
      expect(generated.text).toContain("Forecast for qa");
      const streamed = streamText({ model, prompt: QUESTION, maxRetries: 0 });
      let text = "";
      for await (const part of streamed.textStream) text += part;
      expect(text).toBe(generated.text);
      expect(await streamed.finishReason).toBe("stop");
    },
  );
});

describe("a streamed run whose provider fails mid-run (built CLI)", () => {
  it("ends with response.failed on Responses and an error chunk then [DONE] on Chat", async () => {
    const gateway = await startGateway("dead", `http://127.0.0.1:${await freePort()}/v1`);
    const client = clientFor(gateway.url);
    const events = await collect(
      await client.responses.create({ model: "toolsift", input: "hi", stream: true }),
    );
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.failed",
    ]);
    const failed = events.at(-1) as Extract<ResponseStreamEvent, { type: "response.failed" }>;
    expect(failed.response.error).toMatchObject({ code: "provider_failed" });

    const chat = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    expect(chat.status).toBe(200);
    const frames = parseSseFrames(await chat.text());
    expect(frames.at(-1)?.data).toBe("[DONE]");
    expect(JSON.parse(frames.at(-2)?.data ?? "")).toEqual({
      error: {
        message: expect.stringContaining("could not be reached"),
        type: "server_error",
        param: null,
        code: "provider_failed",
      },
    });
  });
});

describe("a client that leaves mid-stream (built CLI)", () => {
  it("cancels the run: the session log ends CANCELLED", async () => {
    // A provider that accepts requests and never answers: the run waits in its first provider request.
    const { createServer } = await import("node:http");
    const requests: Array<() => void> = [];
    const held = createServer((_request, response) => {
      requests.push(() => response.destroy());
    });
    await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
    const address = held.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    try {
      const gateway = await startGateway("held", `http://127.0.0.1:${address.port}/v1`);
      for (const api of ["responses", "chat"] as const) {
        const session = `left-${api}`;
        const client = new AbortController();
        const response = await fetch(
          `${gateway.url}/v1/${api === "responses" ? "responses" : "chat/completions"}`,
          {
            method: "POST",
            headers: { "content-type": "application/json", "x-toolsift-session": session },
            body: JSON.stringify(
              api === "responses"
                ? { input: "hi", stream: true }
                : { messages: [{ role: "user", content: "hi" }], stream: true },
            ),
            signal: client.signal,
          },
        );
        expect(response.status).toBe(200);
        await response.body?.getReader().read();
        await expect.poll(() => requests.length).toBeGreaterThan(api === "responses" ? 0 : 1);
        client.abort();
        await expect
          .poll(
            async () =>
              (await sessionEvents(gateway.url, session)).find((event) => event.type === "run-summary"),
            {
              timeout: 10_000,
            },
          )
          .toMatchObject({
            status: "failed",
            error: expect.stringMatching(/^CANCELLED: The client disconnected/u),
          });
      }
    } finally {
      for (const close of requests) close();
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
