import type {
  ResponseContentPartAddedEvent,
  ResponseContentPartDoneEvent,
  ResponseCustomToolCallInputDeltaEvent,
  ResponseCustomToolCallInputDoneEvent,
  ResponseFunctionCallArgumentsDeltaEvent,
  ResponseFunctionCallArgumentsDoneEvent,
  ResponseOutputItemAddedEvent,
  ResponseOutputItemDoneEvent,
  ResponseTextDeltaEvent,
  ResponseTextDoneEvent,
} from "openai/resources/responses/responses";
import type { RunEvent, RunResult } from "../../../runtime/run-surface/index.js";
import type { GatewayError } from "../gateway-error.js";
import type { TurnRequest } from "../request/turn-request.js";
import { newId } from "../response-ids.js";
import type { SseFrame } from "../sse.js";
import {
  clientCallItem,
  type HandedCall,
  inProgressResponse,
  messageItem,
  type ResponseIdentity,
  type ResponsesObject,
  type ResponsesOutputItem,
  toResponsesObject,
} from "./responses-object.js";
import type * as Frame from "./responses-stream-frames.js";

/** The turn of messages sent whole from a run's result (no event gave their turn). */
const UNSTREAMED_TURN = -1;

/** The message item being streamed: the turn whose text it holds. */
type OpenMessage = { id: string; outputIndex: number; turn: number; text: string };

/**
 * Translates one run's events into the Responses API's semantic stream events: `response.created` and
 * `response.in_progress` first, one message item per turn (`output_item.added`, `content_part.added`,
 * `output_text.delta`…, closed at that turn's `model-request-finish`), one `function_call` item per client
 * tool call handed back, then `response.completed` / `response.incomplete` / `response.failed` with the
 * final response. Every event carries a strictly increasing `sequence_number` from 0. Items the events did
 * not show (a runner that only reports its result) are sent whole from the result before the terminal
 * event, so the stream always adds up to the final response. Server-side tool calls have no place in this
 * format and are not sent.
 */
export class ResponsesStream {
  readonly #request: TurnRequest;
  readonly #identity: ResponseIdentity;
  readonly #items: ResponsesOutputItem[] = [];
  #sequence = 0;
  #started = false;
  #open: OpenMessage | undefined;
  #final: ResponsesObject | undefined;
  #model = "";
  readonly #onFinal: (response: ResponsesObject) => void;

  /**
   * `onFinal` receives the final response (the one in the terminal event) before the terminal event is
   * handed out, so it can be stored before the client sees the end.
   */
  constructor(
    request: TurnRequest,
    identity: ResponseIdentity,
    onFinal: (response: ResponsesObject) => void = () => {},
  ) {
    this.#request = request;
    this.#identity = identity;
    this.#onFinal = onFinal;
  }

  /** The frames for one run event (none for events this format has no place for). */
  onEvent(event: RunEvent): SseFrame[] {
    const frames: SseFrame[] = [];
    if (this.#final !== undefined) return frames;
    if (!this.#started) {
      this.#start(frames, event.type === "run-finish" ? event.result.model : runModel(event));
    }
    switch (event.type) {
      case "text-delta":
        this.#textDelta(frames, event.turn, event.delta);
        break;
      case "model-request-finish":
        if (this.#open?.turn === event.turn) this.#closeMessage(frames);
        break;
      case "tool-call-handoff":
        this.#closeMessage(frames);
        this.#functionCall(frames, event);
        break;
      case "run-finish":
        this.#finish(frames, event.result);
        break;
      default:
        // run-start, server-side tool calls and searches: no place in the Responses stream.
        break;
    }
    return frames;
  }

  /**
   * The frames for a run that ended with an exception instead of a result: an `error` event, then
   * `response.failed`, so every stream ends with a terminal response event.
   */
  onError(error: GatewayError): SseFrame[] {
    const frames: SseFrame[] = [];
    if (this.#final !== undefined) return frames;
    if (!this.#started) this.#start(frames, "");
    this.#closeMessage(frames);
    const code = error.apiCode ?? "server_error";
    this.#emit(frames, {
      type: "error",
      code,
      message: error.message,
      param: error.param,
    } satisfies Frame.ErrorFrame);
    const response = inProgressResponse(this.#request, this.#identity, this.#model);
    response.status = "failed";
    response.output = this.#items;
    response.error = { code, message: error.message };
    this.#end(frames, response);
    return frames;
  }

  #end(frames: SseFrame[], response: ResponsesObject): void {
    this.#final = response;
    this.#onFinal(response);
    this.#emit(frames, { type: terminalEvent(response.status), response } satisfies Frame.TerminalFrame);
  }

  #start(frames: SseFrame[], model: string): void {
    this.#started = true;
    this.#model = model;
    const response = inProgressResponse(this.#request, this.#identity, model);
    this.#emit(frames, { type: "response.created", response } satisfies Frame.CreatedFrame);
    this.#emit(frames, { type: "response.in_progress", response } satisfies Frame.InProgressFrame);
  }

  #textDelta(frames: SseFrame[], turn: number, delta: string): void {
    if (this.#open !== undefined && this.#open.turn !== turn) this.#closeMessage(frames);
    const open = this.#open ?? this.#openMessage(frames, turn);
    open.text += delta;
    this.#emit(frames, {
      type: "response.output_text.delta",
      ...textRef(open),
      delta,
      logprobs: [],
    } satisfies Frame.Unsequenced<ResponseTextDeltaEvent>);
  }

  #openMessage(frames: SseFrame[], turn: number): OpenMessage {
    const open: OpenMessage = { id: newId("msg"), outputIndex: this.#items.length, turn, text: "" };
    const item = messageItem(open.id, "", "in_progress");
    this.#items.push(item);
    this.#open = open;
    this.#emit(frames, {
      type: "response.output_item.added",
      output_index: open.outputIndex,
      item,
    } satisfies Frame.Unsequenced<ResponseOutputItemAddedEvent>);
    this.#emit(frames, {
      type: "response.content_part.added",
      ...textRef(open),
      part: outputText(""),
    } satisfies Frame.Unsequenced<ResponseContentPartAddedEvent>);
    return open;
  }

  #closeMessage(frames: SseFrame[]): void {
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    const item = messageItem(open.id, open.text, "completed");
    this.#items[open.outputIndex] = item;
    this.#emit(frames, {
      type: "response.output_text.done",
      ...textRef(open),
      text: open.text,
      logprobs: [],
    } satisfies Frame.Unsequenced<ResponseTextDoneEvent>);
    this.#emit(frames, {
      type: "response.content_part.done",
      ...textRef(open),
      part: outputText(open.text),
    } satisfies Frame.Unsequenced<ResponseContentPartDoneEvent>);
    this.#emit(frames, {
      type: "response.output_item.done",
      output_index: open.outputIndex,
      item,
    } satisfies Frame.Unsequenced<ResponseOutputItemDoneEvent>);
  }

  /**
   * One client tool call in the client's declared form: a `function_call` item with its arguments events,
   * or a `custom_tool_call` item with `response.custom_tool_call_input.delta` / `.done`.
   */
  #functionCall(frames: SseFrame[], call: HandedCall): void {
    const forms = this.#request.callForms;
    const custom = forms?.get(call.name)?.kind === "custom";
    const id = newId(custom ? "ctc" : "fc");
    const outputIndex = this.#items.length;
    const added = clientCallItem(id, call, forms, "in_progress");
    this.#items.push(added);
    const ref = { item_id: id, output_index: outputIndex };
    this.#emit(frames, {
      type: "response.output_item.added",
      output_index: outputIndex,
      item: added,
    } satisfies Frame.Unsequenced<ResponseOutputItemAddedEvent>);
    const done = clientCallItem(id, call, forms, "completed");
    if (done.type === "custom_tool_call") {
      this.#emit(frames, {
        type: "response.custom_tool_call_input.delta",
        ...ref,
        delta: done.input,
      } satisfies Frame.Unsequenced<ResponseCustomToolCallInputDeltaEvent>);
      this.#emit(frames, {
        type: "response.custom_tool_call_input.done",
        ...ref,
        input: done.input,
      } satisfies Frame.Unsequenced<ResponseCustomToolCallInputDoneEvent>);
    } else if (done.type === "function_call") {
      this.#emit(frames, {
        type: "response.function_call_arguments.delta",
        ...ref,
        delta: call.arguments,
      } satisfies Frame.Unsequenced<ResponseFunctionCallArgumentsDeltaEvent>);
      this.#emit(frames, {
        type: "response.function_call_arguments.done",
        ...ref,
        name: done.name,
        arguments: call.arguments,
      } satisfies Frame.Unsequenced<ResponseFunctionCallArgumentsDoneEvent>);
    }
    this.#items[outputIndex] = done;
    this.#emit(frames, {
      type: "response.output_item.done",
      output_index: outputIndex,
      item: done,
    } satisfies Frame.Unsequenced<ResponseOutputItemDoneEvent>);
  }

  #finish(frames: SseFrame[], result: RunResult): void {
    this.#closeMessage(frames);
    this.#sendUnstreamed(frames, result);
    const response = toResponsesObject(result, this.#request, { ...this.#identity, output: this.#items });
    this.#end(frames, response);
  }

  /**
   * Sends whole the result's items that no event showed: every message when no text was streamed at all,
   * and client tool calls not yet handed back, in the result's order.
   */
  #sendUnstreamed(frames: SseFrame[], result: RunResult): void {
    const textStreamed = this.#items.some((item) => item.type === "message");
    const callsStreamed = new Set(
      this.#items.flatMap((item) =>
        item.type === "function_call" || item.type === "custom_tool_call" ? [item.call_id] : [],
      ),
    );
    for (const item of result.output) {
      if (item.type === "message" && item.role === "assistant" && item.text !== "" && !textStreamed) {
        this.#closeMessage(frames);
        this.#textDelta(frames, UNSTREAMED_TURN, item.text);
        this.#closeMessage(frames);
      } else if (item.type === "function_call" && !callsStreamed.has(item.callId)) {
        this.#functionCall(frames, item);
      }
    }
  }

  /** Writes one event as its frame, numbered: `data` is `type`, then `sequence_number`, then its fields. */
  #emit(frames: SseFrame[], event: Frame.ResponsesFrame): void {
    const { type, ...fields } = event;
    frames.push({ event: type, data: { type, sequence_number: this.#sequence, ...fields } });
    this.#sequence += 1;
  }
}

function runModel(event: RunEvent): string {
  return event.type === "run-start" ? event.model : "";
}

function textRef(open: OpenMessage): { item_id: string; output_index: number; content_index: 0 } {
  return { item_id: open.id, output_index: open.outputIndex, content_index: 0 };
}

function outputText(text: string): { type: "output_text"; text: string; annotations: [] } {
  return { type: "output_text", text, annotations: [] };
}

function terminalEvent(status: ResponsesObject["status"]): Frame.TerminalFrame["type"] {
  if (status === "failed") return "response.failed";
  return status === "incomplete" ? "response.incomplete" : "response.completed";
}
