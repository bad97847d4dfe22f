export { type AnthropicErrorBody, anthropicErrorBody, toAnthropicErrorBody } from "./messages-error.js";
export { type OpenAIErrorBody, openAIErrorBody } from "./openai-error.js";
export {
  CHAT_CHUNK_OBJECT,
  CHAT_STREAM_DONE,
  type MessagesStreamEventName,
  type ResponsesStreamEventName,
} from "./stream-event-names.js";
