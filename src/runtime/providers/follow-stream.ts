import { isToolsiftError } from "../../shared/errors/index.js";
import { type ProviderErrorContext, streamBrokenError, streamStalledError } from "./provider-error.js";

/** A stream of the `openai` (or Anthropic) client: its items, and the controller that cancels its HTTP response. */
export type ClientStream<Item> = AsyncIterable<Item> & { controller: AbortController };

/** Options of `followStream`. */
export type FollowStreamOptions = {
  /** The caller's signal: once aborted, no further item is handed on and the stream ends with a cancel. */
  signal?: AbortSignal;
  /** Longest quiet spell between two items before the stream is given up (the provider's `timeoutMs`). */
  idleMs: number;
  context: ProviderErrorContext;
  /** The API's name for messages (`Responses API`, `Chat Completions`). */
  api: string;
  /** The client's own error objects (its `APIError`), passed through unchanged for the caller's mapping. */
  isClientError: (error: unknown) => boolean;
  /** The error thrown once the caller's signal aborted (the client's `APIUserAbortError`). */
  abortError: () => unknown;
};

/**
 * The items of a client stream, with the failures the client swallows or leaves raw turned into clear
 * ones. The client ends an aborted stream silently: here the caller's abort is `APIUserAbortError` (mapped
 * to `CANCELLED`), checked before and after each item so buffered events are not handed on after it. A
 * stream quiet for `idleMs` is cancelled and reported; a connection lost or an unreadable event is a
 * "broke off" error. The provider's own error objects (`APIError`) pass through. Leaving the loop early
 * cancels the HTTP response (the client's stream aborts it when not read to the end).
 */
export async function* followStream<Item>(
  stream: ClientStream<Item>,
  options: FollowStreamOptions,
): AsyncGenerator<Item, void, undefined> {
  const { signal, idleMs, context, api, isClientError, abortError } = options;
  let stalled = false;
  let timer: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      stream.controller.abort();
    }, idleMs);
  };
  const settle = () => {
    if (signal?.aborted) throw abortError();
    if (stalled) throw streamStalledError(context);
  };
  rearm();
  try {
    for await (const item of stream) {
      settle();
      rearm();
      yield item;
      settle();
    }
  } catch (error) {
    settle();
    if (isClientError(error) || isToolsiftError(error)) throw error;
    throw streamBrokenError(context, api, error);
  } finally {
    clearTimeout(timer);
  }
  settle();
}
