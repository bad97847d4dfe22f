/** Where one `complete()` call collects the size of the body it sent last (a retry overwrites it). */
export type BytesRecorder = { bytes: number };

/**
 * The key under which a request's recorder rides in the client's `fetchOptions`: the `openai` client
 * spreads them into the `init` it passes to `fetch` (retries included), so the recorder reaches the fetch
 * made on that request's behalf without any shared or async-context state (AsyncLocalStorage would turn on
 * promise hooks for the whole process, a few percent of the gateway's CPU).
 */
const RECORDER = Symbol("toolsift.requestBytes");

/** Request options that make the client's fetch record the bytes it sends into `recorder`. */
export function recordBytesInto(recorder: BytesRecorder): { fetchOptions: Record<never, never> } {
  // Typed as an empty init: the key is a symbol the client copies along but never reads.
  return { fetchOptions: { [RECORDER]: recorder } as Record<never, never> };
}

/** A `fetch` that records the UTF-8 byte size of each request body in its request's recorder, then delegates. */
export function byteCountingFetch(inner: typeof fetch): typeof fetch {
  return (input, init) => {
    const recorder = (init as { [RECORDER]?: BytesRecorder } | undefined)?.[RECORDER];
    if (!recorder || !init) return inner(input, init);
    recorder.bytes = bodyBytes(init.body);
    const { [RECORDER]: _, ...rest } = init as RequestInit & { [RECORDER]?: BytesRecorder };
    return inner(input, rest);
  };
}

function bodyBytes(body: unknown): number {
  if (typeof body === "string") return Buffer.byteLength(body, "utf8");
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return 0;
}
