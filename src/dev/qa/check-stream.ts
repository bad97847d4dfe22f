import type { LaneAnswer } from "./send-lane-request.js";
import type { StreamFigures } from "./types.js";

/** Fewest text deltas a streaming lane must receive ("several", not one whole text). */
const MIN_STREAMED_TEXT_DELTAS = 2;

/** A streaming lane's answer, the same request answered whole (another session), and the stream's session log. */
export type StreamObservation = {
  api: "responses" | "chat";
  streamed: LaneAnswer;
  whole: LaneAnswer;
  /** The session log of the streamed run. */
  events: unknown[];
};

type LoggedEvent = { type?: string; name?: string; at?: string; status?: string };

/**
 * Checks the streaming facts of a lane: an event stream whose several text deltas began before the run
 * ended (by the session log's clock), that ends the way its API ends (`response.completed` / `[DONE]`),
 * whose deltas add up to its final object, and whose final object equals the whole answer's (ids, times and
 * token counts aside); the run searched, called and completed. Failures are listed, never thrown.
 */
export function checkStream(observation: StreamObservation): { failures: string[]; figures?: StreamFigures } {
  const { api, streamed, whole } = observation;
  const failures: string[] = [];
  const fail = (message: string) => failures.push(message);
  const stream = streamed.stream;
  if (!stream) return { failures: ["the streamed request got no event stream"] };

  if (!(stream.contentType ?? "").startsWith("text/event-stream"))
    fail(`the stream's content-type is ${stream.contentType}, not text/event-stream`);
  for (const problem of stream.problems) fail(problem);
  const deltas = stream.textDeltas;
  if (deltas.length < MIN_STREAMED_TEXT_DELTAS)
    fail(`the stream carried ${deltas.length} text delta(s), expected at least ${MIN_STREAMED_TEXT_DELTAS}`);

  const events = observation.events as LoggedEvent[];
  const summaries = events.filter((event) => event.type === "run-summary");
  const summary = summaries.at(-1);
  if (summaries.length !== 1 || summary?.status !== "completed")
    fail(
      `the session log has ${summaries.length} run summaries, the last ${summary?.status}, expected one completed`,
    );
  const runEnded = Date.parse(summary?.at ?? "");
  const firstDelta = deltas[0]?.receivedAt;
  if (firstDelta !== undefined && !(firstDelta < runEnded))
    fail("the first text delta did not arrive before the run ended (session log run-summary time)");
  const lastFrame = stream.frames.at(-1)?.receivedAt;
  if (firstDelta !== undefined && lastFrame !== undefined && !(firstDelta < lastFrame))
    fail("the first text delta arrived with the stream's last frame, not before it");
  for (const name of ["tool_search", "tool_call"]) {
    if (!events.some((event) => event.type === "tool-result" && event.name === name))
      fail(`the session log shows no ${name} result: the target was not reached through the controls`);
  }

  const expectedTerminal = api === "responses" ? "response.completed" : "[DONE]";
  if (stream.terminal !== expectedTerminal)
    fail(`the stream ended with ${stream.terminal}, expected ${expectedTerminal}`);
  if (stream.final === undefined) fail("the stream carried no final answer object");
  else {
    const finalText = api === "responses" ? outputText(stream.final) : chatContent(stream.final);
    if (finalText !== streamed.answer) fail("the text deltas do not add up to the final object's text");
    if (whole.status !== 200) fail(`the same request answered whole got HTTP ${whole.status}`);
    else if (!sameShape(stream.final, whole.body))
      fail(
        `the streamed final object differs from the whole answer: ${JSON.stringify(withoutRunIdentity(stream.final))} vs ${JSON.stringify(withoutRunIdentity(whole.body))}`,
      );
  }
  if (api === "responses") {
    const numbers = stream.frames.map(
      (frame) => (parseJson(frame.data) as { sequence_number?: unknown })?.sequence_number,
    );
    if (!numbers.every((number, index) => number === index))
      fail("the events' sequence_number does not count 0, 1, 2, … without gaps");
  }
  return {
    failures,
    figures: {
      frames: stream.frames.length,
      textDeltas: deltas.length,
      firstTextMs: firstDelta === undefined ? -1 : firstDelta - streamed.sentAt,
      lastFrameMs: lastFrame === undefined ? -1 : lastFrame - streamed.sentAt,
      terminal: stream.terminal ?? "",
    },
  };
}

/**
 * An answer with what differs between two runs of one request set aside: ids (`resp_`, `msg_`, `fc_`,
 * `chatcmpl-`), creation times and token counts (each run's session, and so its prompt, is its own).
 */
export function withoutRunIdentity(value: unknown): unknown {
  const text = JSON.stringify(value ?? null)
    .replace(/"(resp|msg|fc)_[0-9A-Za-z]+"/gu, '"$1_ID"')
    .replace(/"chatcmpl-[0-9A-Za-z]+"/gu, '"chatcmpl-ID"')
    .replace(/"(created|created_at|completed_at)":\d+/gu, '"$1":0')
    .replace(/"(\w+)_tokens":\d+/gu, '"$1_tokens":0');
  return JSON.parse(text) as unknown;
}

function sameShape(left: unknown, right: unknown): boolean {
  return (
    JSON.stringify(sorted(withoutRunIdentity(left))) === JSON.stringify(sorted(withoutRunIdentity(right)))
  );
}

/** The value with object keys in order, so key order never decides equality. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => [key, sorted(inner)]),
  );
}

function outputText(value: unknown): string | undefined {
  const text = (value as { output_text?: unknown }).output_text;
  return typeof text === "string" ? text : undefined;
}

function chatContent(value: unknown): string | undefined {
  const content = (value as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message
    ?.content;
  return typeof content === "string" ? content : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
