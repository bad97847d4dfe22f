import { describe, expect, it } from "vitest";
import { readLaneStream } from "./read-lane-stream.js";

/** A streamed response whose body arrives in exactly these byte chunks. */
function streamedResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

const responsesEvent = (sequence: number, type: string, fields: Record<string, unknown> = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...fields })}\n\n`;

const chatChunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-abc",
    object: "chat.completion.chunk",
    created: 7,
    model: "main",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  })}\n\n`;

describe("readLaneStream", () => {
  it("reads Responses events split across chunks, keeps their deltas and the completed response", async () => {
    const completed = responsesEvent(3, "response.completed", { response: { output_text: "Hi there" } });
    const whole = [
      responsesEvent(0, "response.created"),
      responsesEvent(1, "response.output_text.delta", { delta: "Hi " }),
      responsesEvent(2, "response.output_text.delta", { delta: "there" }),
      completed,
    ].join("");
    const cut = whole.indexOf("there");
    const stream = await readLaneStream(
      streamedResponse([whole.slice(0, cut), whole.slice(cut)]),
      "responses",
    );
    expect(stream.frames.map((frame) => frame.event)).toEqual([
      "response.created",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.completed",
    ]);
    expect(stream.textDeltas.map((delta) => delta.text)).toEqual(["Hi ", "there"]);
    expect(stream.terminal).toBe("response.completed");
    expect(stream.final).toEqual({ output_text: "Hi there" });
    expect(stream.problems).toEqual([]);
    expect(stream.contentType).toBe("text/event-stream");
  });

  it("reports error events, frames that are not JSON, and a name that differs from the type", async () => {
    const stream = await readLaneStream(
      streamedResponse([
        responsesEvent(0, "error", { message: "boom" }),
        "event: response.failed\ndata: {not json\n\n",
        `event: response.completed\ndata: ${JSON.stringify({ type: "response.incomplete" })}\n\n`,
      ]),
      "responses",
    );
    expect(stream.problems).toHaveLength(3);
    expect(stream.problems[0]).toContain("the stream carried error");
    expect(stream.problems[1]).toContain("frame 2 is not a JSON object");
    expect(stream.problems[2]).toContain(
      "frame 3 is named response.completed but has type response.incomplete",
    );
    expect(stream.final).toBeUndefined();
  });

  it("rebuilds a chat.completion from chunks (CRLF line ends too) and ends on [DONE]", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const stream = await readLaneStream(
      streamedResponse([
        chatChunk({ role: "assistant", content: "" }),
        chatChunk({ content: "Done. " }).replaceAll("\n", "\r\n"),
        chatChunk({ content: "OK" }),
        chatChunk({}, "stop"),
        `data: ${JSON.stringify({ id: "chatcmpl-abc", choices: [], usage })}\n\n`,
        "data: [DONE]\n\n",
      ]),
      "chat",
    );
    expect(stream.textDeltas.map((delta) => delta.text)).toEqual(["Done. ", "OK"]);
    expect(stream.terminal).toBe("[DONE]");
    expect(stream.final).toEqual({
      id: "chatcmpl-abc",
      object: "chat.completion",
      created: 7,
      model: "main",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Done. OK", refusal: null },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage,
    });
    expect(stream.problems).toEqual([]);
  });

  it("reports a chat error chunk and a stream without [DONE]", async () => {
    const stream = await readLaneStream(
      streamedResponse([
        chatChunk({ role: "assistant", content: "" }),
        'data: {"error":{"message":"x"}}\n\n',
      ]),
      "chat",
    );
    expect(stream.problems).toEqual(['the stream carried an error: {"error":{"message":"x"}}']);
    expect(stream.terminal).not.toBe("[DONE]");
  });
});
