import type { ClientStream } from "./follow-stream.js";
import { cancelledError, malformedAnswerError, type ProviderErrorContext } from "./provider-error.js";

/** A streamed request's answer: its events, or the whole answer of a server that ignored `stream: true`. */
export type StreamedOrWhole<Item> = { stream: ClientStream<Item> } | { whole: unknown };

/** A pending streamed request of the `openai` or `@anthropic-ai/sdk` client (both have `withResponse`). */
type PendingStream<Item> = { withResponse(): Promise<{ data: ClientStream<Item>; response: Response }> };

/**
 * The answer to a request sent with `stream: true`. Some OpenAI-compatible servers ignore `stream` and
 * answer one JSON body (`application/json`, not `text/event-stream`): the client would read it as an event
 * stream with no event in it. Such an answer is read whole, to be mapped as a non-stream answer (the
 * runner then tells its text in one piece). A body that is not JSON is a malformed answer of `api`; the
 * caller's abort while it arrives is `CANCELLED`.
 */
export async function streamedOrWhole<Item>(
  pending: PendingStream<Item>,
  where: { context: ProviderErrorContext; api: string; signal?: AbortSignal | undefined },
): Promise<StreamedOrWhole<Item>> {
  const { data, response } = await pending.withResponse();
  if (!isJsonMediaType(response.headers.get("content-type"))) return { stream: data };
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The caller's abort while the body arrives is a cancel; a connection lost is mapped as any failure.
    if (where.signal?.aborted) throw cancelledError(where.context, error);
    throw error;
  }
  try {
    return { whole: JSON.parse(text) as unknown };
  } catch {
    throw malformedAnswerError(where.context.id, where.api);
  }
}

/** `application/json` or any `+json` media type, parameters aside (as the clients decide for plain answers). */
function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  return mediaType !== undefined && (mediaType === "application/json" || mediaType.endsWith("+json"));
}
