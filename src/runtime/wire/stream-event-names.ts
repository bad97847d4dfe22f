import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";

/**
 * The `event:` name (and `data.type`) of a Responses stream event, as the `openai` client types them: the
 * gateway and the mock write only names the client knows.
 */
export type ResponsesStreamEventName = ResponseStreamEvent["type"];

/**
 * The `event:` name (and `data.type`) of an Anthropic Messages stream event: the SDK's events, Anthropic's
 * keep-alive `ping` and the `error` event that ends a failed stream.
 */
export type MessagesStreamEventName = RawMessageStreamEvent["type"] | "ping" | "error";

/** The `object` of every Chat Completions stream chunk. */
export const CHAT_CHUNK_OBJECT = "chat.completion.chunk" as const;

/** The `data:` of the frame that ends a Chat Completions stream. */
export const CHAT_STREAM_DONE = "[DONE]" as const;
