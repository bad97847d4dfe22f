import { laneInput, type QaLane } from "./lanes.js";
import { type LaneStream, readLaneStream } from "./read-lane-stream.js";

/** How long one lane's request may take. */
const LANE_REQUEST_TIMEOUT_MS = 60_000;

/** `max_tokens` of a lane's `/v1/messages` request (Anthropic requires one; the mock's answers are short). */
const LANE_MAX_TOKENS = 1_024;

/** The path of each gateway API a lane can call. */
const API_PATHS = { responses: "responses", chat: "chat/completions", messages: "messages" } as const;

/** What one lane request got back: the status, the answer text, and the whole body or the stream. */
export type LaneAnswer = {
  status: number;
  /** Wall-clock time (ms) the request was sent. */
  sentAt: number;
  /** The answer text (`output_text`, the message `content`, the streamed deltas joined) or the error message. */
  answer: string;
  /** The parsed JSON body of an answer that was not streamed (or of a refusal). */
  body: unknown;
  /** The stream, when the request asked for one and got `200`. */
  stream?: LaneStream;
};

/**
 * Sends a lane's request to the gateway on its API (`/v1/responses`, `/v1/chat/completions` or
 * `/v1/messages`), streamed or whole (`/v1/messages`: whole only), in the session `sessionKey`.
 */
export async function sendLaneRequest(options: {
  url: string;
  lane: QaLane;
  sessionKey: string;
  stream: boolean;
}): Promise<LaneAnswer> {
  const api = options.lane.api ?? "responses";
  const input = laneInput(options.lane);
  const streamFields = options.stream
    ? { stream: true, ...(api === "chat" ? { stream_options: { include_usage: true } } : {}) }
    : {};
  const body =
    api === "chat"
      ? { model: "mock-tool-planner", messages: [{ role: "user", content: input }], ...streamFields }
      : api === "messages"
        ? {
            model: "mock-tool-planner",
            max_tokens: LANE_MAX_TOKENS,
            messages: [{ role: "user", content: input }],
          }
        : { model: "mock-tool-planner", input, ...streamFields };
  const sentAt = Date.now();
  const response = await fetch(`${options.url}/v1/${API_PATHS[api]}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolsift-session": options.sessionKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(LANE_REQUEST_TIMEOUT_MS),
  });
  if (options.stream && response.status === 200 && api !== "messages") {
    const stream = await readLaneStream(response, api);
    return {
      status: response.status,
      sentAt,
      answer: stream.textDeltas.map((delta) => delta.text).join(""),
      body: undefined,
      stream,
    };
  }
  const parsed = (await response.json()) as {
    output_text?: string;
    choices?: Array<{ message?: { content?: string | null } }>;
    content?: Array<{ type?: string; text?: string }>;
    error?: { message?: string };
  };
  const text =
    api === "chat"
      ? parsed.choices?.[0]?.message?.content
      : api === "messages"
        ? (parsed.content ?? [])
            .flatMap((block) => (block.type === "text" ? [block.text ?? ""] : []))
            .join("")
        : parsed.output_text;
  return { status: response.status, sentAt, answer: text ?? parsed.error?.message ?? "", body: parsed };
}
