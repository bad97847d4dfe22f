import { describe, expect, it } from "vitest";
import type { RunEvent, RunResult } from "../../../runtime/run-surface/index.js";
import { GatewayError } from "../gateway-error.js";
import type { SseFrame } from "../sse.js";
import { MessagesStream } from "./messages-stream.js";

// The adapter alone, over hand-written run events: what each event becomes on the wire. The official
// client reading a real gateway's stream is in messages-route.test.ts and stream-conformance.test.ts.

const RESULT: RunResult = {
  runId: "r",
  agentId: "main",
  sessionKey: "s",
  status: "completed",
  output: [{ type: "message", role: "assistant", text: "Hi" }],
  text: "Hi",
  model: "mock/m",
  usage: { inputTokens: 4, outputTokens: 2 },
};

const START: RunEvent = { type: "run-start", runId: "r", agentId: "main", sessionKey: "s", model: "mock/m" };

/** The event names and data of every frame the adapter makes for `events`. */
function run(events: RunEvent[], stream = new MessagesStream("msg_1")) {
  const frames: SseFrame[] = events.flatMap((event) => stream.onEvent(event));
  return frames.map((frame) =>
    "done" in frame ? { event: "[DONE]" } : { event: frame.event, data: frame.data },
  );
}

describe("MessagesStream", () => {
  it("pings while a server-side tool runs, skips empty deltas, and never names the call", () => {
    const frames = run([
      START,
      { type: "tool-call-start", callId: "c1", name: "tool_search", arguments: { query: "x" } },
      { type: "tool-call-finish", callId: "c1", name: "tool_search", isError: false, output: "[]" },
      { type: "search-finish", callId: "c1", queries: ["x"], hits: 0 },
      { type: "text-delta", runId: "r", turn: 2, delta: "" },
      { type: "text-delta", runId: "r", turn: 2, delta: "Hi" },
      { type: "model-request-finish", runId: "r", turn: 2 },
      { type: "run-finish", result: RESULT },
    ]);
    expect(frames.map((frame) => frame.event)).toEqual([
      "message_start",
      "ping",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(JSON.stringify(frames)).not.toContain("tool_search");
    expect(frames[0]?.data).toMatchObject({
      message: { id: "msg_1", model: "mock/m", usage: { input_tokens: 0 } },
    });
  });

  it("ends a failed run with an error event after closing the open block, and nothing after it", () => {
    const stream = new MessagesStream("msg_2");
    const frames = run(
      [
        START,
        { type: "text-delta", runId: "r", turn: 1, delta: "part" },
        {
          type: "run-finish",
          result: { ...RESULT, status: "failed", error: { code: "RUN_TIMEOUT", message: "too slow" } },
        },
        { type: "text-delta", runId: "r", turn: 1, delta: "late" },
      ],
      stream,
    );
    expect(frames.slice(-2)).toEqual([
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      { event: "error", data: { type: "error", error: { type: "timeout_error", message: "too slow" } } },
    ]);
    expect(stream.onError(new GatewayError(500, "boom"))).toEqual([]);
  });

  it("answers a runner that threw before any event with message_start, then the error", () => {
    const frames = new MessagesStream("msg_3").onError(new GatewayError(500, "internal"));
    expect(frames.map((frame) => ("done" in frame ? "[DONE]" : frame.event))).toEqual([
      "message_start",
      "ping",
      "error",
    ]);
  });

  it("sends what only the result shows: its messages, then the calls not handed back, in order", () => {
    const result: RunResult = {
      ...RESULT,
      status: "requires_action",
      output: [
        { type: "message", role: "assistant", text: "First." },
        { type: "function_call", callId: "toolu_1", name: "f", arguments: '{"a":1}' },
        { type: "message", role: "assistant", text: "Second." },
      ],
    };
    const frames = run([{ type: "run-finish", result }]);
    const starts = frames.filter((frame) => frame.event === "content_block_start").map((frame) => frame.data);
    expect(starts).toEqual([
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} },
      },
      { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
    ]);
    expect(frames.find((frame) => frame.event === "message_delta")?.data).toMatchObject({
      delta: { stop_reason: "tool_use", stop_sequence: null },
    });
  });
});
