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
