import { describe, expect, it } from "vitest";
import { errorOf, startTestGateway, type TestGateway } from "./gateway.test-support.js";
import { frameData, parseSseFrames, type ReadFrame, readSseFrames } from "./sse.test-support.js";

// One contract, every streaming front door (as Hono's routers share one suite): what each API's stream
// must do with the same run, read off the wire of a real gateway on 127.0.0.1 over the FakeRunner.

/** What a test reads from one API's stream, whatever its wire format. */
type StreamReading = {
  /** The text deltas, in order. */
  deltas: string[];
  /** Client tool calls handed back. */
  calls: Array<{ callId: string; name: string; arguments: string }>;
  /** `completed` (incl. tool calls), `incomplete`, or `failed` with the error's code. */
  end: { status: "completed" | "incomplete" | "failed"; code?: string; message?: string };
};

type StreamingApi = {
  name: string;
  path: string;
  body(text: string, extra?: Record<string, unknown>): Record<string, unknown>;
  read(frames: ReadFrame[]): StreamReading;
  /** How this API names a gateway error code (`session_busy`): the code itself, or its error type. */
  code(gatewayCode: string): string;
  /** The message and code (as `code` names it) of a JSON error answer, in this API's error shape. */
  errorOf(response: Response): Promise<{ message: string; code: string | null }>;
};

const WEATHER_TOOL = {
  type: "function",
  name: "get_weather",
  description: "Weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};

const responsesApi: StreamingApi = {
  name: "Responses",
  path: "/v1/responses",
  code: (gatewayCode) => gatewayCode,
  errorOf,
  body: (text, extra = {}) => ({ model: "toolsift", input: text, stream: true, ...extra }),
  read(frames) {
    const events = frameData(frames);
    // Every frame names its event, as its `type` does; no [DONE] in this API.
    expect(frames.every((frame) => frame.event === frameData([frame])[0]?.type)).toBe(true);
    const sequence = events.map((event) => event.sequence_number);
    expect(sequence).toEqual(sequence.map((_value, index) => index));
    const deltas = events
      .filter((event) => event.type === "response.output_text.delta")
      .map((event) => String(event.delta));
    const calls = events
      .filter((event) => event.type === "response.output_item.done")
      .map((event) => event.item as Record<string, unknown>)
      .filter((item) => item.type === "function_call")
      .map((item) => ({
        callId: String(item.call_id),
        name: String(item.name),
        arguments: String(item.arguments),
      }));
    const last = events.at(-1) as {
      type: string;
      response: { status: string; error: { code: string; message: string } | null };
    };
    const terminal = ["response.completed", "response.incomplete", "response.failed"];
    expect(events.filter((event) => terminal.includes(String(event.type)))).toHaveLength(1);
    expect(terminal).toContain(last.type);
    const status = last.response.status as StreamReading["end"]["status"];
    return {
      deltas,
      calls,
      end: last.response.error
        ? { status, code: last.response.error.code, message: last.response.error.message }
        : { status },
    };
  },
};

const chatApi: StreamingApi = {
  name: "Chat Completions",
  path: "/v1/chat/completions",
  code: (gatewayCode) => gatewayCode,
  errorOf,
  body: (text, extra = {}) => ({
    model: "toolsift",
    messages: [{ role: "user", content: text }],
    stream: true,
    ...extra,
  }),
  read(frames) {
    expect(frames.every((frame) => frame.event === undefined)).toBe(true);
    expect(frames.at(-1)?.data).toBe("[DONE]");
    expect(frames.filter((frame) => frame.data === "[DONE]")).toHaveLength(1);
    const chunks = frameData(frames);
    const failure = chunks.find((chunk) => chunk.error !== undefined)?.error as
      | { code: string; message: string }
      | undefined;
    if (failure)
      return {
        deltas: [],
        calls: [],
        end: { status: "failed", code: failure.code, message: failure.message },
      };
    type Choice = {
      delta: {
        content?: string;
        tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }>;
      };
      finish_reason: string | null;
    };
    const choices = chunks.flatMap((chunk) => (chunk.choices as Choice[]) ?? []);
    const deltas = choices
      .map((choice) => choice.delta.content)
      .filter((content) => content !== undefined && content !== "") as string[];
    const calls: StreamReading["calls"] = [];
    for (const choice of choices) {
      for (const call of choice.delta.tool_calls ?? []) {
        const known = calls[call.index];
        if (known === undefined)
          calls[call.index] = {
            callId: String(call.id),
            name: String(call.function.name),
            arguments: call.function.arguments,
          };
        else known.arguments += call.function.arguments;
      }
    }
    const finish = choices.map((choice) => choice.finish_reason).filter((reason) => reason !== null);
    expect(finish).toHaveLength(1);
    return { deltas, calls, end: { status: finish[0] === "length" ? "incomplete" : "completed" } };
  },
};

/** Anthropic's error types for the gateway codes this suite meets (`anthropic-error.ts` maps by status). */
const ANTHROPIC_TYPES: Readonly<Record<string, string>> = {
  provider_failed: "api_error",
  internal_error: "api_error",
  storage_unavailable: "overloaded_error",
  shutting_down: "overloaded_error",
  cancelled: "overloaded_error",
  session_busy: "rate_limit_error",
  invalid_api_key: "authentication_error",
};

const messagesApi: StreamingApi = {
  name: "Anthropic Messages",
  path: "/v1/messages",
  code: (gatewayCode) => ANTHROPIC_TYPES[gatewayCode] ?? gatewayCode,
  async errorOf(response) {
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    return { message: body.error.message, code: body.error.type };
  },
  body: (text, extra = {}) => {
    // The suite's client tools are in the Responses form; Messages declares { name, description, input_schema }.
    const { tools, ...rest } = extra as { tools?: Array<typeof WEATHER_TOOL> };
    return {
      model: "toolsift",
      max_tokens: 256,
      messages: [{ role: "user", content: text }],
      stream: true,
      ...(tools === undefined
        ? {}
        : {
            tools: tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.parameters,
            })),
          }),
      ...rest,
    };
  },
  read(frames) {
    const events = frameData(frames);
    // Every frame names its event, as its `type` does; no [DONE] in this API.
    expect(frames.every((frame) => frame.event === frameData([frame])[0]?.type)).toBe(true);
    expect(events[0]?.type).toBe("message_start");
    const failure = events.find((event) => event.type === "error")?.error as
      | { type: string; message: string }
      | undefined;
    const deltas: string[] = [];
    const calls: StreamReading["calls"] = [];
    const blocks = new Map<number, StreamReading["calls"][number]>();
    for (const event of events) {
      const index = Number(event.index);
      if (event.type === "content_block_start") {
        const block = event.content_block as { type: string; id?: string; name?: string };
        if (block.type === "tool_use") {
          const call = { callId: String(block.id), name: String(block.name), arguments: "" };
          blocks.set(index, call);
          calls.push(call);
        }
      } else if (event.type === "content_block_delta") {
        const delta = event.delta as { type: string; text?: string; partial_json?: string };
        if (delta.type === "text_delta") deltas.push(String(delta.text));
        else if (delta.type === "input_json_delta") {
          const call = blocks.get(index);
          if (call !== undefined) call.arguments += delta.partial_json ?? "";
        }
      }
    }
    if (failure !== undefined) {
      expect(events.at(-1)?.type).toBe("error");
      return { deltas, calls, end: { status: "failed", code: failure.type, message: failure.message } };
    }
    expect(events.at(-1)?.type).toBe("message_stop");
    const finish = events.filter((event) => event.type === "message_delta");
    expect(finish).toHaveLength(1);
    const reason = (finish[0]?.delta as { stop_reason?: string } | undefined)?.stop_reason;
    return { deltas, calls, end: { status: reason === "max_tokens" ? "incomplete" : "completed" } };
  },
};

async function stream(
  test: TestGateway,
  api: StreamingApi,
  text: string,
  headers: Record<string, string> = {},
  extra = {},
) {
  const response = await test.post(api.path, api.body(text, extra), headers);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const frames = await readSseFrames(response);
  return { response, frames, reading: api.read(frames) };
}

describe.each([responsesApi, chatApi, messagesApi])("streaming over $name", (api) => {
  it("sends the text as the run's deltas, in order, and carries the agent and session headers", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const { response, reading } = await stream(test, api, "deltas:Hel|lo, |world", {
      "x-toolsift-session": "s-stream",
    });
    expect(reading.deltas).toEqual(["Hel", "lo, ", "world"]);
    expect(reading.end).toEqual({ status: "completed" });
    expect(response.headers.get("x-toolsift-agent")).toBe("main");
    expect(response.headers.get("x-toolsift-session")).toBe("s-stream");
  });

  it("sends text as it arrives: the first delta reaches the client while the run still runs", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const response = await test.post(api.path, api.body("trickle:slow"));
    expect(response.status).toBe(200);
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    while (!received.includes("first ")) received += (await reader?.read())?.value ?? "";
    expect(test.runner.timeline).not.toContain("end:trickle:slow");
    test.runner.release("trickle:slow");
    for (;;) {
      const next = await reader?.read();
      if (next === undefined || next.done) break;
      received += next.value;
    }
    expect(api.read(parseSseFrames(received)).deltas).toEqual(["first ", "second"]);
  });

  it("streams the whole answer from the result of a runner that tells no events", async () => {
    const test = await startTestGateway();
    const { reading } = await stream(test, api, "hi there");
    expect(reading.deltas.join("")).toBe("echo: hi there");
    expect(reading.end).toEqual({ status: "completed" });
  });

  it.each([true, false])("hands client tool calls back (runner tells events: %s)", async (emitEvents) => {
    const test = await startTestGateway({ emitEvents });
    const { reading } = await stream(test, api, "call:get_weather", {}, { tools: [WEATHER_TOOL] });
    expect(reading.calls).toEqual([{ callId: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }]);
    expect(reading.deltas).toEqual([]);
    expect(reading.end.status).toBe("completed");
  });

  it("ends a run cut short as incomplete", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const { reading } = await stream(test, api, "cut");
    expect(reading.deltas.join("")).toBe("partial");
    expect(reading.end.status).toBe("incomplete");
  });

  it("ends a run that fails after its first text with a failure, no stack trace", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const { frames, reading } = await stream(test, api, "fail-after-text:PROVIDER_FAILED");
    expect(reading.end).toMatchObject({ status: "failed", code: api.code("provider_failed") });
    expect(reading.end.message).toContain("the provider failed after a partial answer");
    expect(JSON.stringify(frames)).not.toMatch(/\.js:\d+:\d+|\n\s+at\s/u);
  });

  it("ends a runner that throws mid-stream with an internal error; the detail only in the log", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const { frames, reading } = await stream(test, api, "throw-after-text");
    expect(reading.end).toMatchObject({ status: "failed", code: api.code("internal_error") });
    expect(JSON.stringify(frames)).not.toContain("/secret/path");
    expect(test.logs.join("\n")).toContain("runner exploded at /secret/path/runner.js");
  });

  it("answers refusals before the stream starts as JSON errors with their status", async () => {
    const test = await startTestGateway({ maxQueuedPerSession: 0 });
    const unknownAgent = await test.post(api.path, api.body("x", { model: "toolsift/nobody" }));
    expect(unknownAgent.status).toBe(404);
    expect((await api.errorOf(unknownAgent)).message).toContain("main");
    // A run refused before it began (here: the log cannot be written) is the non-stream answer's 503.
    const refused = await test.post(api.path, api.body("fail:STORAGE_UNAVAILABLE"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(await api.errorOf(refused)).toMatchObject({ code: api.code("storage_unavailable") });
    // The session's queue is full: 429 with Retry-After and the session headers, nothing queued.
    const held = test.post(api.path, api.body("hold:busy"), { "x-toolsift-session": "busy" });
    await test.runner.started("hold:busy");
    const busy = await test.post(api.path, api.body("second"), { "x-toolsift-session": "busy" });
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(busy.headers.get("x-toolsift-session")).toBe("busy");
    expect(await api.errorOf(busy)).toMatchObject({ code: api.code("session_busy") });
    test.runner.release("hold:busy");
    expect((await held).status).toBe(200);
    // Draining: 503 shutting_down.
    await test.gateway.drain(1_000);
    const draining = await test.post(api.path, api.body("late"));
    expect(draining.status).toBe(503);
    expect(await api.errorOf(draining)).toMatchObject({ code: api.code("shutting_down") });
  });

  it("passes the auth and browser guards first: no token 401, unlisted Origin 403, a listed one gets CORS", async () => {
    const page = "http://localhost:5173";
    const test = await startTestGateway({
      emitEvents: true,
      authToken: "secret-token",
      allowOrigins: [page],
    });
    const bearer = { authorization: "Bearer secret-token" };
    const anonymous = await test.post(api.path, api.body("x"));
    expect(anonymous.status).toBe(401);
    expect(await api.errorOf(anonymous)).toMatchObject({ code: api.code("invalid_api_key") });
    const foreign = await test.post(api.path, api.body("x"), { ...bearer, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(test.runner.requests).toHaveLength(0);
    const { response, reading } = await stream(test, api, "hi", { ...bearer, origin: page });
    expect(reading.deltas.join("")).toBe("echo: hi");
    expect(response.headers.get("access-control-allow-origin")).toBe(page);
    expect(response.headers.get("access-control-expose-headers")).toContain("x-toolsift-session");
  });

  it("ends a stream whose run a drain cancels with a failure, not a hung connection", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const response = await test.post(api.path, api.body("hold:drained"));
    expect(response.status).toBe(200);
    const frames = readSseFrames(response);
    await test.gateway.drain(50);
    const reading = api.read(await frames);
    expect(reading.end).toMatchObject({ status: "failed", code: api.code("cancelled") });
  });

  it("cancels the run when the client disconnects mid-stream", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = new AbortController();
    const response = await fetch(`${test.url}${api.path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(api.body("hold:left")),
      signal: client.signal,
    });
    // The stream started (run-start): the headers arrived while the run is held.
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    await reader?.read();
    const run = test.runner.requests.at(-1);
    expect(run?.signal?.aborted).toBe(false);
    client.abort();
    await expect.poll(() => test.runner.timeline.includes("end:hold:left")).toBe(true);
    expect(run?.signal?.aborted).toBe(true);
    expect(run?.signal?.reason).toMatchObject({ code: "CANCELLED" });
  });
});
