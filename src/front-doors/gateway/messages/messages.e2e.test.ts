import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import type { MessageParam, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../../dev/mock-openai/index.js";
import type { SessionEvent } from "../../../runtime/sessions/index.js";
import { type AssembledRuntime, assembleRuntime } from "../../cli/assemble-runtime.js";
import { createGateway } from "../create-gateway.js";
import { freePort } from "../ports.test-support.js";
import { withoutRunIdentity } from "../sse.test-support.js";
import type { GatewayListener } from "../types.js";

// `POST /v1/messages` with a real runner: the runtime the CLI assembles (config file, the example weather
// plugin, a file session store) over `toolsift mock-openai` on 127.0.0.1, behind a real gateway on an
// ephemeral port, driven by the official `@anthropic-ai/sdk` client. The run's provider speaks OpenAI; the
// route does not care. Further gateways point at a port nobody listens on (the provider fails mid-run) and
// at a provider that never answers (the client leaves mid-stream).

const EXAMPLE_PLUGINS = fileURLToPath(new URL("../../../../examples/plugins", import.meta.url));
const QUESTION = "What is the weather in Berlin tomorrow? target=get_forecast";
const LOCATE_USER = {
  name: "locate_user",
  description: "The user's city.",
  input_schema: {
    type: "object" as const,
    properties: { city: { type: "string" } },
    required: ["city"],
  },
};

let root: string;
let mock: MockOpenAI;
const stops: Array<() => Promise<void>> = [];

/** A runtime from a config whose provider is at `baseUrl`, behind a gateway on 127.0.0.1. */
async function startGateway(
  name: string,
  baseUrl: string,
): Promise<{ url: string; runtime: AssembledRuntime }> {
  const dir = join(root, name);
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl, apiKey: "mock-key", maxRetries: 0 } } },
    agents: { defaults: { model: "mock/toolsift-mock" } },
    plugins: { load: { paths: [EXAMPLE_PLUGINS] } },
  };
  const configPath = join(root, `${name}.json`);
  await writeFile(configPath, JSON.stringify(config));
  const runtime = await assembleRuntime({ configPath, env: { TOOLSIFT_STATE_DIR: join(dir, "state") } });
  const gateway = createGateway({
    runner: runtime.runner,
    sessions: runtime.environment.sessions,
    log: () => {},
  });
  const listener: GatewayListener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  stops.push(async () => {
    await listener.close();
    await runtime.close();
  });
  return { url: listener.url, runtime };
}

const clientFor = (url: string, session?: string) =>
  new Anthropic({
    baseURL: url,
    apiKey: "unused-on-loopback",
    maxRetries: 0,
    ...(session === undefined ? {} : { defaultHeaders: { "x-toolsift-session": session } }),
  });

async function sessionEvents(runtime: AssembledRuntime, session: string): Promise<SessionEvent[]> {
  return runtime.environment.sessions.read("main", session);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-messages-e2e-"));
  mock = await startMockOpenAI({ port: 0 });
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await mock?.close();
  await rm(root, { recursive: true, force: true });
});

describe("the Anthropic SDK against a gateway with a real runner over the mock provider", () => {
  let url: string;
  let runtime: AssembledRuntime;
  beforeAll(async () => {
    ({ url, runtime } = await startGateway("main", mock.baseUrl));
  });

  it("messages.create and messages.stream().finalMessage() answer alike; server-side tools stay inside", async () => {
    const client = clientFor(url, "e2e-weather");
    const request = {
      model: "toolsift",
      max_tokens: 1024,
      messages: [{ role: "user" as const, content: QUESTION }],
    };
    const whole = await client.messages.create(request);
    expect(whole.stop_reason).toBe("end_turn");
    expect(whole.content.every((block) => block.type === "text")).toBe(true);
    const wholeText = whole.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(wholeText).toContain("Forecast for qa");
    expect(whole.usage.input_tokens).toBeGreaterThan(0);
    // The session log shows the server-side search and call the answer does not.
    const events = await sessionEvents(runtime, "e2e-weather");
    expect(JSON.stringify(events)).toContain("get_forecast");

    const stream = clientFor(url).messages.stream(request);
    const texts: string[] = [];
    stream.on("text", (text) => texts.push(text));
    const { parsed_output: _parsed, ...final } = await stream.finalMessage();
    expect(texts.join("")).toBe(wholeText);
    expect(withoutRunIdentity(final, { tokens: true })).toEqual(withoutRunIdentity(whole, { tokens: true }));
  });

  it("create({ stream: true }) sends only Anthropic events, and no server-side tool block", async () => {
    // Its own session: the same question in the session of an earlier test would be a repeat, answered from
    // the log without a model request (no tokens).
    const stream = await clientFor(url).messages.create(
      {
        model: "toolsift",
        max_tokens: 1024,
        messages: [{ role: "user", content: QUESTION }],
        stream: true,
      },
      { headers: { "x-toolsift-session": "e2e-raw-events" } },
    );
    const events: RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0]?.type).toBe("message_start");
    expect(events.at(-1)?.type).toBe("message_stop");
    const blocks = events.flatMap((event) =>
      event.type === "content_block_start" ? [event.content_block.type] : [],
    );
    expect(new Set(blocks)).toEqual(new Set(["text"]));
    const finish = events.find((event) => event.type === "message_delta");
    expect(finish).toMatchObject({ delta: { stop_reason: "end_turn" } });
    expect(finish?.type === "message_delta" ? finish.usage.output_tokens : 0).toBeGreaterThan(0);
  });

  it.each([
    ["whole, one session", false, "e2e-tools-whole"],
    ["streamed, one session", true, "e2e-tools-stream"],
  ] as const)(
    "client tool round trip: tool_use → tool_result → the answer (%s)",
    async (_name, streamed, session) => {
      const client = clientFor(url, session);
      const messages: MessageParam[] = [{ role: "user", content: "Which city am I in? target=locate_user" }];
      const ask = () => {
        const request = { model: "toolsift", max_tokens: 1024, messages, tools: [LOCATE_USER] };
        return streamed ? client.messages.stream(request).finalMessage() : client.messages.create(request);
      };
      const first = await ask();
      expect(first.stop_reason).toBe("tool_use");
      const call = first.content.find((block) => block.type === "tool_use");
      expect(call).toMatchObject({ type: "tool_use", name: "locate_user", input: { city: "qa" } });
      messages.push(
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: String(call?.id), content: "Lyon" }] },
      );
      const answer = await ask();
      expect(answer.stop_reason).toBe("end_turn");
      expect(answer.content.map((block) => (block.type === "text" ? block.text : "")).join("")).toContain(
        "Lyon",
      );
    },
  );
});

describe("a streamed Messages run whose provider fails mid-run", () => {
  it("ends with an error event the SDK raises as api_error", async () => {
    const { url } = await startGateway("dead", `http://127.0.0.1:${await freePort()}/v1`);
    const error = await clientFor(url)
      .messages.stream({ model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .finalMessage()
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).error).toEqual({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("could not be reached") },
    });
  });
});

describe("a Messages client that leaves mid-stream", () => {
  it("cancels the run: the session log ends CANCELLED", async () => {
    // A provider that accepts requests and never answers: the run waits in its first provider request.
    const requests: Array<() => void> = [];
    const held = createServer((_request, response) => {
      requests.push(() => response.destroy());
    });
    await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
    const { port } = held.address() as AddressInfo;
    try {
      const { url, runtime } = await startGateway("held", `http://127.0.0.1:${port}/v1`);
      const client = new AbortController();
      const response = await fetch(`${url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-toolsift-session": "left-messages" },
        body: JSON.stringify({
          model: "toolsift",
          max_tokens: 64,
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        }),
        signal: client.signal,
      });
      expect(response.status).toBe(200);
      const first = await response.body?.pipeThrough(new TextDecoderStream()).getReader().read();
      expect(first?.value).toContain("event: message_start");
      await expect.poll(() => requests.length).toBeGreaterThan(0);
      client.abort();
      await expect
        .poll(
          async () =>
            (await sessionEvents(runtime, "left-messages")).find((event) => event.type === "run-summary"),
          { timeout: 10_000 },
        )
        .toMatchObject({
          status: "failed",
          error: expect.stringMatching(/^CANCELLED: The client disconnected/u),
        });
    } finally {
      for (const close of requests) close();
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
