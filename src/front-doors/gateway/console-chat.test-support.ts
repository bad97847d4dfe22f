import { CSRF_HEADER, SESSION_COOKIE } from "../console/console-paths.js";
import type { ConsoleChatFrame } from "../console/index.js";
import { ndjsonReader } from "../console/ndjson-reader.test-support.js";

/** Reads a streamed chat answer's frames; `until` fails the test when the stream ends before a match. */
export function frameReader(response: Response) {
  const read = ndjsonReader<ConsoleChatFrame>(response);
  return {
    frames: read.seen,
    async until(matches: (frame: ConsoleChatFrame) => boolean): Promise<ConsoleChatFrame> {
      const frame = await read.until(matches);
      if (frame === undefined) throw new Error(`the stream ended: ${JSON.stringify(read.seen)}`);
      return frame;
    },
  };
}

/** Posts one chat turn as the signed-in console page at `url` would (its cookie, CSRF token and origin). */
export function postChat(
  url: string,
  signedIn: { cookie: string | undefined; csrf: unknown },
  body: { agent: string; session?: string; input: string },
): Promise<Response> {
  return fetch(`${url}/console/api/chat`, {
    method: "POST",
    headers: {
      [CSRF_HEADER]: String(signedIn.csrf),
      cookie: `${SESSION_COOKIE}=${signedIn.cookie}`,
      origin: url,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}
