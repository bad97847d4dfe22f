import type { ConsoleRouteContext } from "./console-request.js";
import { refuse } from "./console-request.js";
import type { ConsoleChatFrame } from "./types.js";

/** The media type of the chat's answer: one JSON object per line. */
export const CHAT_STREAM_TYPE = "application/x-ndjson; charset=utf-8";

/**
 * `POST /console/api/chat` `{ agent, session?, input }`: one turn with an agent, run by the gateway's own run
 * path (the backend), answered as NDJSON, one `ConsoleChatFrame` per line, written as the run goes. A
 * refusal before the run started is the usual JSON error with its status. The page reads the body with
 * `fetch` (so the CSRF header is sent) and stops the run by aborting it: the connection closes, which
 * cancels the run through its one signal.
 */
export function registerChatRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, signedInCaller } = context;
  app.post(`${api}/chat`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const chat = await backend.chat(c, caller);
    return c.body(ndjson(chat.frames), 200, {
      "Content-Type": CHAT_STREAM_TYPE,
      "X-Accel-Buffering": "no",
    });
  });
}

/** Frames as NDJSON, each pulled once the previous one was taken; a cancelled body stops the frames. */
function ndjson(frames: AsyncGenerator<ConsoleChatFrame>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await frames.next();
      if (next.done === true) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      await frames.return(undefined);
    },
  });
}
