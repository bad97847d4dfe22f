import type {
  RawContentBlockDeltaEvent,
  RawContentBlockStopEvent,
  RawMessageStopEvent,
} from "@anthropic-ai/sdk/resources/messages";
import type { RunEvent, RunResult } from "../../../runtime/run-surface/index.js";
import { toAnthropicErrorBody } from "../../../runtime/wire/index.js";
import type { GatewayError } from "../gateway-error.js";
import { runFailureError } from "../run-failure.js";
import type { RunStreamAdapter } from "../run-stream-frames.js";
import type { SseFrame } from "../sse.js";
import { messagesUsage, stopReason, toolUseInput } from "./messages-object.js";
import type {
  ContentBlockStartFrame,
  MessageDeltaFrame,
  MessageStartFrame,
  MessagesFrame,
  PingFrame,
} from "./messages-stream-frames.js";

/** The turn of messages sent whole from a run's result (no event gave their turn). */
const UNSTREAMED_TURN = -1;

/** The text block being streamed: its index in the message, and the turn whose text it holds. */
type OpenText = { index: number; turn: number };

/**
 * Translates one run's events into the Anthropic Messages stream: `message_start` (empty content, usage
 * still 0) and a `ping`, one `text` content block per turn (`content_block_start`, `text_delta`s, closed by
 * `content_block_stop` at that turn's `model-request-finish`), one `tool_use` block per client tool call
 * handed back (its whole input as one `input_json_delta`), then `message_delta` (stop reason, the run's usage)
 * and `message_stop`. A `ping` is sent whenever a server-side tool call starts, so a long tool keeps the
 * connection visibly alive without showing the call. A failed run, or a runner that threw, ends with an
 * `error` event in Anthropic's shape. Blocks the events did not show (a runner that only reports its result)
 * are sent from the result before `message_delta`, so the stream always adds up to the whole answer.
 */
export class MessagesStream implements RunStreamAdapter {
  readonly #id: string;
  #started = false;
  #ended = false;
  #nextIndex = 0;
  #open: OpenText | undefined;
  #textStreamed = false;
  readonly #handedBack = new Set<string>();

  /** `id` is the message's `msg_…` id, fixed when the request arrived. */
  constructor(id: string) {
    this.#id = id;
  }

  /** The frames for one run event (none for events this format has no place for). */
  onEvent(event: RunEvent): SseFrame[] {
    const frames: SseFrame[] = [];
    if (this.#ended) return frames;
    if (!this.#started) {
      this.#start(frames, event.type === "run-finish" ? event.result.model : runModel(event));
    }
    switch (event.type) {
      case "text-delta":
        this.#text(frames, event.turn, event.delta);
        break;
      case "model-request-finish":
        if (this.#open?.turn === event.turn) this.#closeText(frames);
        break;
      case "tool-call-handoff":
        this.#closeText(frames);
        this.#toolUse(frames, event);
        break;
      case "tool-call-start":
        this.#emit(frames, { type: "ping" } satisfies PingFrame);
        break;
      case "run-finish":
        this.#finish(frames, event.result);
        break;
      default:
        // run-start, finished server-side calls and searches: no place in the Messages stream.
        break;
    }
    return frames;
  }

  /** The frames for a run that ended with an exception: an `error` event (none once the stream ended). */
  onError(error: GatewayError): SseFrame[] {
    const frames: SseFrame[] = [];
    if (this.#ended) return frames;
    if (!this.#started) this.#start(frames, "");
    this.#fail(frames, error);
    return frames;
  }

  #start(frames: SseFrame[], model: string): void {
    this.#started = true;
    const message = {
      id: this.#id,
      type: "message" as const,
      role: "assistant" as const,
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: messagesUsage({ inputTokens: 0, outputTokens: 0 }),
    };
    this.#emit(frames, { type: "message_start", message } satisfies MessageStartFrame);
    this.#emit(frames, { type: "ping" } satisfies PingFrame);
  }

  #text(frames: SseFrame[], turn: number, delta: string): void {
    if (delta === "") return;
    if (this.#open !== undefined && this.#open.turn !== turn) this.#closeText(frames);
    if (this.#open === undefined) {
      this.#open = { index: this.#nextIndex, turn };
      this.#nextIndex += 1;
      this.#emit(frames, {
        type: "content_block_start",
        index: this.#open.index,
        content_block: { type: "text", text: "" },
      } satisfies ContentBlockStartFrame);
    }
    this.#textStreamed = true;
    this.#emit(frames, {
      type: "content_block_delta",
      index: this.#open.index,
      delta: { type: "text_delta", text: delta },
    } satisfies RawContentBlockDeltaEvent);
  }

  #closeText(frames: SseFrame[]): void {
    if (this.#open === undefined) return;
    this.#emit(frames, {
      type: "content_block_stop",
      index: this.#open.index,
    } satisfies RawContentBlockStopEvent);
    this.#open = undefined;
  }

  #toolUse(frames: SseFrame[], call: { callId: string; name: string; arguments: string }): void {
    const index = this.#nextIndex;
    this.#nextIndex += 1;
    this.#handedBack.add(call.callId);
    this.#emit(frames, {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.callId, name: call.name, input: {} },
    } satisfies ContentBlockStartFrame);
    this.#emit(frames, {
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(toolUseInput(call.arguments)) },
    } satisfies RawContentBlockDeltaEvent);
    this.#emit(frames, { type: "content_block_stop", index } satisfies RawContentBlockStopEvent);
  }

  #finish(frames: SseFrame[], result: RunResult): void {
    this.#closeText(frames);
    if (result.status === "failed") {
      this.#fail(frames, runFailureError(result));
      return;
    }
    this.#sendUnstreamed(frames, result);
    this.#ended = true;
    this.#emit(frames, {
      type: "message_delta",
      delta: { stop_reason: stopReason(result, this.#handedBack.size > 0), stop_sequence: null },
      usage: messagesUsage(result.usage),
    } satisfies MessageDeltaFrame);
    this.#emit(frames, { type: "message_stop" } satisfies RawMessageStopEvent);
  }

  /**
   * Sends whole the result's blocks that no event showed: every assistant message when no text was
   * streamed at all, and client tool calls not yet handed back, in the result's order.
   */
  #sendUnstreamed(frames: SseFrame[], result: RunResult): void {
    const textStreamed = this.#textStreamed;
    for (const item of result.output) {
      if (item.type === "message" && item.role === "assistant" && !textStreamed) {
        this.#text(frames, UNSTREAMED_TURN, item.text);
        this.#closeText(frames);
      } else if (item.type === "function_call" && !this.#handedBack.has(item.callId)) {
        this.#toolUse(frames, item);
      }
    }
  }

  #fail(frames: SseFrame[], error: GatewayError): void {
    this.#ended = true;
    frames.push({ event: "error", data: toAnthropicErrorBody(error.status, error.message) });
  }

  /** Writes one event as its frame: `event:` is its `type`, `data` the event itself (`type` first). */
  #emit(frames: SseFrame[], event: MessagesFrame): void {
    frames.push({ event: event.type, data: event });
  }
}

function runModel(event: RunEvent): string {
  return event.type === "run-start" ? event.model : "";
}
