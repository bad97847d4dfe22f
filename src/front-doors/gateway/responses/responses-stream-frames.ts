import type {
  ResponseCompletedEvent,
  ResponseContentPartAddedEvent,
  ResponseContentPartDoneEvent,
  ResponseCreatedEvent,
  ResponseCustomToolCallInputDeltaEvent,
  ResponseCustomToolCallInputDoneEvent,
  ResponseErrorEvent,
  ResponseFailedEvent,
  ResponseFunctionCallArgumentsDeltaEvent,
  ResponseFunctionCallArgumentsDoneEvent,
  ResponseIncompleteEvent,
  ResponseInProgressEvent,
  ResponseOutputItemAddedEvent,
  ResponseOutputItemDoneEvent,
  ResponseTextDeltaEvent,
  ResponseTextDoneEvent,
} from "openai/resources/responses/responses";
import type { ResponsesObject } from "./responses-object.js";

// The Responses stream frames the gateway writes, checked against the `openai` event types with `satisfies`.
// Each is built without its `sequence_number`, which `ResponsesStream` adds as it writes the frame.

/** An SDK stream event as built, before `ResponsesStream` numbers it. */
export type Unsequenced<Event> = Event extends unknown ? Omit<Event, "sequence_number"> : never;

/**
 * A lifecycle event carrying the response: the gateway's `ResponsesObject` in place of the SDK's `Response`,
 * which requires `temperature` and `top_p` (the gateway does not send them) and types `error.code` as
 * OpenAI's own codes (the gateway sends its own, such as `run_timeout`).
 */
type WithResponse<Event extends { response: unknown }> = Omit<Unsequenced<Event>, "response"> & {
  response: ResponsesObject;
};

export type CreatedFrame = WithResponse<ResponseCreatedEvent>;
export type InProgressFrame = WithResponse<ResponseInProgressEvent>;
/** `response.completed`, `response.incomplete` or `response.failed`, as the response's status says. */
export type TerminalFrame =
  | WithResponse<ResponseCompletedEvent>
  | WithResponse<ResponseIncompleteEvent>
  | WithResponse<ResponseFailedEvent>;
export type ErrorFrame = Unsequenced<ResponseErrorEvent>;

/** Every frame of a Responses stream, as built. */
export type ResponsesFrame =
  | CreatedFrame
  | InProgressFrame
  | TerminalFrame
  | ErrorFrame
  | Unsequenced<
      | ResponseTextDeltaEvent
      | ResponseTextDoneEvent
      | ResponseOutputItemAddedEvent
      | ResponseOutputItemDoneEvent
      | ResponseContentPartAddedEvent
      | ResponseContentPartDoneEvent
      | ResponseFunctionCallArgumentsDeltaEvent
      | ResponseFunctionCallArgumentsDoneEvent
      | ResponseCustomToolCallInputDeltaEvent
      | ResponseCustomToolCallInputDoneEvent
    >;
