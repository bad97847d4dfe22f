import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "../gateway.test-support.js";
import { withoutRunIdentity } from "../sse.test-support.js";
import type { ResponsesObject } from "./responses-object.js";

const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });

const WEATHER_TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  strict: false,
};

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("POST /v1/responses with stream: true, through the official openai client", () => {
  it("sends the semantic events in order, with strictly increasing sequence numbers from 0", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const events = await collect(
      await client.responses.create({ model: "toolsift", input: "turns:First.|Second.", stream: true }),
    );
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      ...messageEvents(),
      ...messageEvents(),
      "response.completed",
    ]);
    const created = events[0] as Extract<ResponseStreamEvent, { type: "response.created" }>;
    expect(created.response).toMatchObject({ status: "in_progress", output: [], model: "mock/scripted" });
    const added = events.filter((event) => event.type === "response.output_item.added");
    expect(added.map((event) => event.output_index)).toEqual([0, 1]);
    const done = events.filter((event) => event.type === "response.output_text.done");
    expect(done.map((event) => event.text)).toEqual(["First.", "Second."]);
    const completed = events.at(-1) as Extract<ResponseStreamEvent, { type: "response.completed" }>;
    // The items of the final response are the items the stream opened, with the same ids.
    expect(completed.response.output.map((item) => item.id)).toEqual(
      added.map((event) => (event.item as { id: string }).id),
    );
    expect(completed.response.id).toBe(created.response.id);
  });

  it("ends with the response the non-stream call returns, and stores it for GET /v1/responses/:id", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    for (const [index, input] of [
      "deltas:Hello|, world",
      "turns:One|Two",
      "call:get_weather",
      "cut",
    ].entries()) {
      // The raw body: the client recomputes `output_text` of a whole response itself. Two sessions: the same
      // request twice in one session would be a repeat, answered from the log.
      const whole = await (
        await test.post(
          "/v1/responses",
          { model: "toolsift", input, tools: [WEATHER_TOOL] },
          { "x-toolsift-session": `whole-${index}` },
        )
      ).json();
      const events = await collect(
        await client.responses.create(
          { model: "toolsift", input, tools: [WEATHER_TOOL], stream: true },
          { headers: { "x-toolsift-session": `streamed-${index}` } },
        ),
      );
      const last = events.at(-1) as { response: ResponsesObject };
      expect(withoutRunIdentity(last.response)).toEqual(withoutRunIdentity(whole));
      const stored = await test.get(`/v1/responses/${last.response.id}`);
      expect(await stored.json()).toEqual(last.response);
    }
  });

  it("with store: false keeps the streamed response out of GET, and its id still continues the session", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const events = await collect(
      await client.responses.create({ model: "toolsift", input: "hi", stream: true, store: false }),
    );
    const { id } = (events.at(-1) as { response: ResponsesObject }).response;
    expect((await test.get(`/v1/responses/${id}`)).status).toBe(404);
    const next = await test.post(
      "/v1/responses",
      { input: "again", previous_response_id: id },
      { "x-toolsift-session": "other-than-the-first" },
    );
    expect(next.status).toBe(400);
    const same = await client.responses.create({
      model: "toolsift",
      input: "again",
      previous_response_id: id,
    });
    expect(same.output_text).toBe("echo: again");
  });

  it("responses.stream() gives the text as it arrives and finalResponse() the final response", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const stream = client.responses.stream({ model: "toolsift", input: "deltas:Streaming |works|." });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(["Streaming ", "works", "."]);
    expect(final.output_text).toBe("Streaming works.");
    expect(final.status).toBe("completed");
    const stored = (await (await test.get(`/v1/responses/${final.id}`)).json()) as ResponsesObject;
    expect(stored.output.map((item) => item.id)).toEqual(final.output.map((item) => item.id));
  });

  it("hands a client tool call back as a function_call item with its argument events, then continues", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const stream = client.responses.stream({
      model: "toolsift",
      input: "call:get_weather",
      tools: [WEATHER_TOOL],
    });
    const argumentsDone: string[] = [];
    stream.on("response.function_call_arguments.done", (event) => argumentsDone.push(event.arguments));
    const final = await stream.finalResponse();
    expect(argumentsDone).toEqual(['{"city":"Paris"}']);
    expect(final.output).toEqual([
      expect.objectContaining({
        type: "function_call",
        call_id: "call_1",
        name: "get_weather",
        status: "completed",
      }),
    ]);
    const answer = await client.responses.stream({
      model: "toolsift",
      previous_response_id: final.id,
      input: [{ type: "function_call_output", call_id: "call_1", output: "sunny" }],
    });
    expect((await answer.finalResponse()).output_text).toBe("tool said: sunny");
  });

  it("ends a run that fails mid-stream with response.failed carrying the error", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const events = await collect(
      await client.responses.create({
        model: "toolsift",
        input: "fail-after-text:PROVIDER_FAILED",
        stream: true,
      }),
    );
    const failed = events.at(-1) as Extract<ResponseStreamEvent, { type: "response.failed" }>;
    expect(failed.type).toBe("response.failed");
    expect(failed.response.status).toBe("failed");
    expect(failed.response.error).toMatchObject({ code: "provider_failed" });
    expect(failed.response.output).toHaveLength(1);
    const stored = await test.get(`/v1/responses/${failed.response.id}`);
    expect(await stored.json()).toEqual(failed.response);
  });

  it("sends an error event, then response.failed, when the runner throws mid-stream", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const events = await collect(
      await client.responses.create({ model: "toolsift", input: "throw-after-text", stream: true }),
    );
    expect(events.slice(-2).map((event) => event.type)).toEqual(["error", "response.failed"]);
    expect(events.at(-2)).toMatchObject({ code: "internal_error", param: null });
  });
});

function messageEvents(): string[] {
  return [
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
  ];
}
