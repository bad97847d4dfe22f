/** Values read off a streamed NDJSON body one line at a time, with every value read so far in `seen`. */
export type NdjsonReader<T> = {
  seen: T[];
  /** The next value; undefined once the stream ended. */
  next(): Promise<T | undefined>;
  /** Values until `matches` accepts one (which is returned); undefined if the stream ends first. */
  until(matches: (value: T) => boolean): Promise<T | undefined>;
};

/** Reads NDJSON values (one JSON text per line) from a response body as they arrive. */
export function ndjsonReader<T>(response: Response): NdjsonReader<T> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const seen: T[] = [];
  let buffered = "";
  const next = async (): Promise<T | undefined> => {
    for (;;) {
      const newline = buffered.indexOf("\n");
      if (newline !== -1) {
        const value = JSON.parse(buffered.slice(0, newline)) as T;
        buffered = buffered.slice(newline + 1);
        seen.push(value);
        return value;
      }
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      buffered += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    seen,
    next,
    async until(matches) {
      for (;;) {
        const value = await next();
        if (value === undefined || matches(value)) return value;
      }
    },
  };
}
