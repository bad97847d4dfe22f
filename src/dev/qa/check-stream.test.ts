import { describe, expect, it } from "vitest";
import { checkStream, type StreamObservation, withoutRunIdentity } from "./check-stream.js";
import type { TimedFrame } from "./read-lane-stream.js";

const SENT_AT = 1_000;
const ANSWER = "Done. FAKE_PLUGIN_OK fake_plugin_tool_17";

const wholeResponse = {
  id: "resp_aaaaaaaaaaaaaaaaaaaaaaaa",
  object: "response",
  created_at: 1,
  status: "completed",
  output: [
    { type: "message", id: "msg_aaaaaaaaaaaaaaaaaaaaaaaa", content: [{ type: "output_text", text: ANSWER }] },
  ],
  output_text: ANSWER,
  usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
};
const streamedResponse = {
  ...wholeResponse,
  id: "resp_bbbbbbbbbbbbbbbbbbbbbbbb",
  created_at: 2,
  output: [{ ...wholeResponse.output[0], id: "msg_bbbbbbbbbbbbbbbbbbbbbbbb" }],
  usage: { input_tokens: 11, output_tokens: 4, total_tokens: 15 },
};

const frame = (sequence: number, type: string, receivedAt: number, fields: Record<string, unknown> = {}) => ({
  event: type,
  data: JSON.stringify({ type, sequence_number: sequence, ...fields }),
  receivedAt,
});

/** A good Responses observation: two deltas 1,100 and 1,150, the end at 1,200, the run logged as ended at 1,190. */
function goodObservation(): StreamObservation {
  const frames: TimedFrame[] = [
    frame(0, "response.created", 1_050),
    frame(1, "response.output_text.delta", 1_100, { delta: "Done. " }),
    frame(2, "response.output_text.delta", 1_150, { delta: "FAKE_PLUGIN_OK fake_plugin_tool_17" }),
    frame(3, "response.completed", 1_200, { response: streamedResponse }),
  ];
  return {
    api: "responses",
    streamed: {
      status: 200,
      sentAt: SENT_AT,
      answer: ANSWER,
      body: undefined,
      stream: {
        contentType: "text/event-stream",
        frames,
        textDeltas: [
          { text: "Done. ", receivedAt: 1_100 },
          { text: "FAKE_PLUGIN_OK fake_plugin_tool_17", receivedAt: 1_150 },
        ],
        terminal: "response.completed",
        final: streamedResponse,
        problems: [],
      },
    },
    whole: { status: 200, sentAt: 2_000, answer: ANSWER, body: wholeResponse },
    events: [
      { type: "tool-result", name: "tool_search", at: new Date(1_060).toISOString() },
      { type: "tool-result", name: "tool_call", at: new Date(1_070).toISOString() },
      { type: "run-summary", status: "completed", at: new Date(1_190).toISOString() },
    ],
  };
}

type Probe = [name: string, change: (observation: StreamObservation) => void, failure: string];

const stream = (observation: StreamObservation) => {
  if (!observation.streamed.stream) throw new Error("no stream");
  return observation.streamed.stream;
};

/** Every fact the check keeps, broken one at a time; each must be named in the failures. */
const PROBES: Probe[] = [
  [
    "no stream at all",
    (o) => {
      delete o.streamed.stream;
    },
    "got no event stream",
  ],
  [
    "a JSON answer's content type",
    (o) => {
      stream(o).contentType = "application/json";
    },
    "not text/event-stream",
  ],
  [
    "a problem the reader found",
    (o) => {
      stream(o).problems = ["frame 2 is not a JSON object"];
    },
    "frame 2 is not",
  ],
  [
    "a single delta",
    (o) => {
      stream(o).textDeltas = stream(o).textDeltas.slice(0, 1);
    },
    "1 text delta(s), expected at least 2",
  ],
  [
    "the first delta after the run ended",
    (o) => {
      const first = stream(o).textDeltas[0];
      if (first) first.receivedAt = 1_195;
    },
    "did not arrive before the run ended",
  ],
  [
    "the first delta with the last frame",
    (o) => {
      const last = stream(o).frames.at(-1);
      if (last) last.receivedAt = 1_100;
    },
    "arrived with the stream's last frame",
  ],
  [
    "a failed run",
    (o) => {
      o.events[2] = { type: "run-summary", status: "failed", at: new Date(1_190).toISOString() };
    },
    "expected one completed",
  ],
  [
    "two runs in the session",
    (o) => {
      o.events.push({ type: "run-summary", status: "completed", at: new Date(1_190).toISOString() });
    },
    "2 run summaries",
  ],
  [
    "no tool_search in the log",
    (o) => {
      o.events.shift();
    },
    "no tool_search result",
  ],
  [
    "no tool_call in the log",
    (o) => {
      o.events.splice(1, 1);
    },
    "no tool_call result",
  ],
  [
    "a stream that ends otherwise",
    (o) => {
      stream(o).terminal = "response.output_text.done";
    },
    "expected response.completed",
  ],
  [
    "no final object",
    (o) => {
      stream(o).final = undefined;
    },
    "no final answer object",
  ],
  [
    "deltas that do not add up",
    (o) => {
      o.streamed.answer = "Done. ";
    },
    "do not add up",
  ],
  [
    "a whole answer that failed",
    (o) => {
      o.whole.status = 500;
    },
    "answered whole got HTTP 500",
  ],
  [
    "a final object unlike the whole one",
    (o) => {
      stream(o).final = { ...streamedResponse, status: "incomplete" };
    },
    "differs from the whole answer",
  ],
  [
    "a gap in sequence numbers",
    (o) => {
      const first = stream(o).frames[0];
      if (first) first.data = JSON.stringify({ type: "response.created", sequence_number: 5 });
    },
    "sequence_number",
  ],
];

describe("checkStream", () => {
  it("passes a good stream and reports its figures", () => {
    expect(checkStream(goodObservation())).toEqual({
      failures: [],
      figures: {
        frames: 4,
        textDeltas: 2,
        firstTextMs: 100,
        lastFrameMs: 200,
        terminal: "response.completed",
      },
    });
  });

  it.each(PROBES)("fails on %s", (_name, change, failure) => {
    const observation = goodObservation();
    change(observation);
    const { failures } = checkStream(observation);
    expect(
      failures.some((message) => message.includes(failure)),
      failures.join("\n"),
    ).toBe(true);
  });

  it("expects [DONE] at the end of a chat stream", () => {
    const observation = goodObservation();
    observation.api = "chat";
    stream(observation).frames = [];
    const { failures } = checkStream(observation);
    expect(failures.some((message) => message.includes("expected [DONE]"))).toBe(true);
  });
});

describe("withoutRunIdentity", () => {
  it("sets aside ids, creation times and token counts, and nothing else", () => {
    expect(withoutRunIdentity(streamedResponse)).toEqual(withoutRunIdentity(wholeResponse));
    expect(
      withoutRunIdentity({ id: "chatcmpl-abc123", created: 9, usage: { prompt_tokens: 3 }, text: "resp_x" }),
    ).toEqual({ id: "chatcmpl-ID", created: 0, usage: { prompt_tokens: 0 }, text: "resp_ID" });
    expect(withoutRunIdentity({ status: "completed" })).not.toEqual(withoutRunIdentity({ status: "failed" }));
  });
});
