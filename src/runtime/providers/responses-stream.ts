import { type ProviderErrorContext, reportedFailureError, streamEndedEarlyError } from "./provider-error.js";
import { readField } from "./read-json.js";

/** The events that end a Responses stream; each carries the whole response. */
const FINAL_EVENTS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/**
 * Reads a Responses API event stream: hands each `response.output_text.delta` and `response.refusal.delta`
 * on to `onTextDelta` in order (the pieces of the message texts the mapping keeps), and resolves with the
 * response object of the final event (`response.completed`, `response.incomplete`, or `response.failed`
 * marked as failed), to be mapped exactly like a non-stream answer. An `error` event rejects with the
 * provider's message; a stream that ends without a final event rejects as incomplete.
 */
export async function readResponsesStream(
  events: AsyncIterable<unknown>,
  onTextDelta: (delta: string) => void,
  context: ProviderErrorContext,
): Promise<unknown> {
  for await (const event of events) {
    const type = readField(event, "type");
    if (type === "response.output_text.delta" || type === "response.refusal.delta") {
      const delta = readField(event, "delta");
      if (typeof delta === "string") onTextDelta(delta);
    } else if (typeof type === "string" && FINAL_EVENTS.has(type)) {
      const response = readField(event, "response");
      // A failed event is a failure whatever status its response claims.
      return type === "response.failed" ? { ...asObject(response), status: "failed" } : response;
    } else if (type === "error") {
      const message = readField(event, "message");
      throw reportedFailureError(
        context,
        typeof message === "string" && message.trim().length > 0 ? message : "the stream reported an error",
      );
    }
  }
  throw streamEndedEarlyError(context, "Responses API", "its final event (response.completed)");
}

function asObject(value: unknown): object {
  return typeof value === "object" && value !== null ? value : {};
}
