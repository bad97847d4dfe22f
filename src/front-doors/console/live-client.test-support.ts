import type { consoleClient } from "./console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import type { LiveLine } from "./live-routes.js";
import { ndjsonReader } from "./ndjson-reader.test-support.js";

/** A live stream opened by a test: the response, its lines as they come, and how to go away. */
export type OpenedLive = {
  response: Response;
  abort: AbortController;
  lines: LineReader | undefined;
};

export type LineReader = {
  /** The next line; undefined once the stream ended. */
  next(): Promise<LiveLine | undefined>;
  /** The next line that is not a heartbeat. */
  nextChange(): Promise<LiveLine | undefined>;
  /** Lines until `done` accepts one (which is returned); undefined if the stream ends first. */
  until(done: (line: LiveLine) => boolean): Promise<LiveLine | undefined>;
};

/**
 * Opens `/console/api/live${path}` on the console at `url` as the signed-in `client`'s page would: its cookie,
 * its CSRF token, same-origin Fetch Metadata; `headers` override them.
 */
export async function openLive(
  url: string,
  client: ReturnType<typeof consoleClient>,
  path: string,
  headers: Record<string, string> = {},
): Promise<OpenedLive> {
  const session = await client.send("GET", "/session");
  const abort = new AbortController();
  const response = await fetch(`${url}/console/api/live${path}`, {
    headers: {
      [CSRF_HEADER]: String(session.body.csrf),
      "sec-fetch-site": "same-origin",
      cookie: `${SESSION_COOKIE}=${client.cookie}`,
      ...headers,
    },
    signal: abort.signal,
  });
  return { response, abort, lines: response.ok ? lineReader(response) : undefined };
}

/** Reads a live stream's NDJSON lines, one at a time (heartbeats skipped by `nextChange` and `until`). */
export function lineReader(response: Response): LineReader {
  const read = ndjsonReader<LiveLine>(response);
  const nextChange = async (): Promise<LiveLine | undefined> => {
    for (;;) {
      const line = await read.next();
      if (line?.type !== "heartbeat") return line;
    }
  };
  return {
    next: read.next,
    nextChange,
    async until(done) {
      for (;;) {
        const line = await nextChange();
        if (line === undefined || done(line)) return line;
      }
    },
  };
}
