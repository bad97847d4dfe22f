import type { Context } from "hono";
import { streamSSE } from "hono/streaming";

/** One server-sent event: `event:` names it when the API does (Responses), `data:` carries the JSON. */
export type SseFrame = { event?: string; data: unknown } | { done: true };

/**
 * A `text/event-stream` response (`hono/streaming`) whose events are `frames`, each pulled only once the
 * previous one was written. `{ done: true }` is Chat Completions' closing `data: [DONE]`. A client that goes
 * away stops the pulling: `frames` is returned (its `finally` runs), which returns the run's event stream and
 * so cancels the run.
 */
export function sseResponse(c: Context, frames: AsyncGenerator<SseFrame>): Response {
  const response = streamSSE(c, async (sse) => {
    for await (const frame of frames) {
      if (sse.aborted) break;
      await sse.writeSSE(
        "done" in frame
          ? { data: "[DONE]" }
          : {
              data: JSON.stringify(frame.data),
              ...(frame.event === undefined ? {} : { event: frame.event }),
            },
      );
      if (sse.aborted) break;
    }
  });
  // The stream's own headers: Node frames the body (chunked) and keeps the connection as it would anyway.
  response.headers.set("Content-Type", "text/event-stream; charset=utf-8");
  response.headers.set("X-Accel-Buffering", "no");
  response.headers.delete("Transfer-Encoding");
  response.headers.delete("Connection");
  return response;
}
