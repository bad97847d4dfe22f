import type {
  Message,
  MessageDeltaUsage,
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
  RawContentBlockStopEvent,
  RawMessageDeltaEvent,
  RawMessageStartEvent,
  RawMessageStopEvent,
  TextBlock,
  ToolUseBlock,
  Usage,
} from "@anthropic-ai/sdk/resources/messages";

// The Messages stream frames the gateway writes, checked against the `@anthropic-ai/sdk` event types with
// `satisfies`. `content_block_delta`, `content_block_stop` and `message_stop` are whole SDK events; the
// frames below leave out fields the SDK lists that the gateway has no value for (a client reads them as
// absent), each named here.

/** The usage the gateway reports: the token counts, without the SDK's cache breakdown and server-tool counts. */
type SentUsage = "input_tokens" | "output_tokens" | "cache_creation_input_tokens" | "cache_read_input_tokens";

/**
 * `message_start`: the message without `container`, `diagnostics` and `stop_details` (no container, no
 * diagnostics, no refusal detail before the answer), its usage the four token counts (`messagesUsage`).
 */
export type MessageStartFrame = Omit<RawMessageStartEvent, "message"> & {
  message: Omit<Message, "container" | "diagnostics" | "stop_details" | "usage"> & {
    usage: Pick<Usage, SentUsage>;
  };
};

/**
 * `content_block_start` of a `text` block without `citations` (the gateway's text cites nothing), or of a
 * `tool_use` block without `caller` (every call handed back is the model's own, `direct`).
 */
export type ContentBlockStartFrame = Omit<RawContentBlockStartEvent, "content_block"> & {
  content_block: Omit<TextBlock, "citations"> | Omit<ToolUseBlock, "caller">;
};

/**
 * `message_delta` without the delta's `container` and `stop_details` (none to report), its usage the four
 * token counts (`messagesUsage`).
 */
export type MessageDeltaFrame = Omit<RawMessageDeltaEvent, "delta" | "usage"> & {
  delta: Omit<RawMessageDeltaEvent.Delta, "container" | "stop_details">;
  usage: Pick<MessageDeltaUsage, SentUsage>;
};

/** Anthropic's keep-alive event (no SDK type: the client skips it). */
export type PingFrame = { type: "ping" };

/** Every frame of a Messages stream but the `error` that ends a failed one (`toAnthropicErrorBody`). */
export type MessagesFrame =
  | MessageStartFrame
  | PingFrame
  | ContentBlockStartFrame
  | RawContentBlockDeltaEvent
  | RawContentBlockStopEvent
  | MessageDeltaFrame
  | RawMessageStopEvent;
