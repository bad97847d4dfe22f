import { AsyncLocalStorage } from "node:async_hooks";

/** Where one `complete()` call collects the size of the body it sent last (a retry overwrites it). */
export type BytesRecorder = { bytes: number };

const recorders = new AsyncLocalStorage<BytesRecorder>();

/**
 * Runs `work` with a fresh recorder, so a fetch made on its behalf (the client's retries included) records
 * the bytes it really sent there. An AsyncLocalStorage scope, not shared state: concurrent requests on one
 * provider never see each other's sizes.
 */
export async function measureRequestBytes<T>(
  work: () => Promise<T>,
): Promise<{ value: T; recorder: BytesRecorder }> {
  const recorder: BytesRecorder = { bytes: 0 };
  const value = await recorders.run(recorder, work);
  return { value, recorder };
}

/** A `fetch` that records the UTF-8 byte size of each request body in the caller's recorder, then delegates. */
export function byteCountingFetch(inner: typeof fetch): typeof fetch {
  return (input, init) => {
    const recorder = recorders.getStore();
    if (recorder) recorder.bytes = bodyBytes(init?.body);
    return inner(input, init);
  };
}

function bodyBytes(body: unknown): number {
  if (typeof body === "string") return Buffer.byteLength(body, "utf8");
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return 0;
}
