import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { RunEvent, RunResult } from "../../../runtime/run-surface/index.js";
import { CHAT_CHUNK_OBJECT } from "../../../runtime/wire/index.js";
import type { GatewayError } from "../gateway-error.js";
import { newId, unixSeconds } from "../response-ids.js";
import { runFailureError } from "../run-failure.js";
import type { SseFrame } from "../sse.js";
import { finishReason } from "./chat-completion-object.js";

/** One `delta` of a `chat.completion.chunk`, as the `openai` client types it. */
type ChatDelta = ChatCompletionChunk.Choice.Delta;

/**
 * Translates one run's events into Chat Completions `chat.completion.chunk`s: a first chunk with the
 * assistant role, the text as `content` deltas as it arrives (the turns' texts joined by a newline, as the
 * whole answer's `content`), each client tool call handed back as `tool_calls` deltas, then a chunk with
 * the `finish_reason`, with `stream_options.include_usage` a last chunk with no choices and the `usage`, and
 * `data: [DONE]`. A failed run ends with an OpenAI error object (`{ error: { … } }`) and `[DONE]`. Text and
 * calls the events did not show (a runner that only reports its result) are sent from the result before the
 * end, so the chunks always add up to the whole answer. Server-side tool calls have no place in this format.
 */
export class ChatStream {
  readonly #id = newId("chatcmpl");
  readonly #created = unixSeconds();
  readonly #includeUsage: boolean;
  #model = "";
  #started = false;
  #ended = false;
  #content = "";
  #lastTextTurn: number | undefined;
  readonly #calls: string[] = [];

  constructor(options: { includeUsage: boolean }) {
    this.#includeUsage = options.includeUsage;
  }

  /** The frames for one run event (none for events this format has no place for). */
  onEvent(event: RunEvent): SseFrame[] {
    const frames: SseFrame[] = [];
    if (this.#ended) return frames;
    if (!this.#started) {
      this.#model = event.type === "run-finish" ? event.result.model : runModel(event);
      this.#start(frames);
    }
    if (event.type === "text-delta") this.#text(frames, event.turn, event.delta);
    else if (event.type === "tool-call-handoff") this.#call(frames, event);
    else if (event.type === "run-finish") this.#finish(frames, event.result);
    return frames;
  }

  /** The frames for a run that ended with an exception: an error object, then `[DONE]`. */
  onError(error: GatewayError): SseFrame[] {
    if (this.#ended) return [];
    this.#ended = true;
    return [{ data: error.body() }, { done: true }];
  }

  #start(frames: SseFrame[]): void {
    this.#started = true;
    frames.push(this.#chunk({ role: "assistant", content: "" }, null));
  }

  #text(frames: SseFrame[], turn: number, delta: string): void {
    // A later turn's message follows the earlier ones after a newline, as in the whole answer's `content`.
    const separator = this.#content !== "" && turn !== this.#lastTextTurn ? "\n" : "";
    this.#lastTextTurn = turn;
    const content = `${separator}${delta}`;
    this.#content += content;
    frames.push(this.#chunk({ content }, null));
  }

  #call(frames: SseFrame[], call: { callId: string; name: string; arguments: string }): void {
    const index = this.#calls.length;
    this.#calls.push(call.callId);
    frames.push(
      this.#chunk(
        {
          tool_calls: [
            { index, id: call.callId, type: "function", function: { name: call.name, arguments: "" } },
          ],
        },
        null,
      ),
    );
    frames.push(this.#chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }, null));
  }

  #finish(frames: SseFrame[], result: RunResult): void {
    this.#ended = true;
    if (this.#model === "") this.#model = result.model;
    if (result.status === "failed") {
      frames.push({ data: runFailureError(result).body() }, { done: true });
      return;
    }
    // What the events did not show: the rest of the text, the calls not yet handed back.
    if (result.text.startsWith(this.#content) && result.text.length > this.#content.length) {
      const rest = result.text.slice(this.#content.length);
      this.#content = result.text;
      frames.push(this.#chunk({ content: rest }, null));
    }
    for (const item of result.output) {
      if (item.type === "function_call" && !this.#calls.includes(item.callId)) this.#call(frames, item);
    }
    frames.push(this.#chunk({}, finishReason(result, this.#calls.length > 0)));
    if (this.#includeUsage) {
      frames.push({
        data: {
          ...this.#envelope(),
          choices: [],
          usage: {
            prompt_tokens: result.usage.inputTokens,
            completion_tokens: result.usage.outputTokens,
            total_tokens: result.usage.inputTokens + result.usage.outputTokens,
          },
        } satisfies ChatCompletionChunk,
      });
    }
    frames.push({ done: true });
  }

  #chunk(delta: ChatDelta, finish: ReturnType<typeof finishReason> | null): SseFrame {
    return {
      data: {
        ...this.#envelope(),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(this.#includeUsage ? { usage: null } : {}),
      } satisfies ChatCompletionChunk,
    };
  }

  #envelope() {
    return {
      id: this.#id,
      object: CHAT_CHUNK_OBJECT,
      created: this.#created,
      model: this.#model,
    };
  }
}

function runModel(event: RunEvent): string {
  return event.type === "run-start" ? event.model : "";
}
