/** One server-sent event as read off the wire: its `event:` name (if any) and its `data:` text. */
export type ReadFrame = { event?: string; data: string };

/** Reads a `text/event-stream` body to its end and splits it into frames (blank-line separated). */
export async function readSseFrames(response: Response): Promise<ReadFrame[]> {
  const text = await response.text();
  return parseSseFrames(text);
}

/** Splits event-stream text into frames; `data:` lines of one frame are joined with newlines. */
export function parseSseFrames(text: string): ReadFrame[] {
  const frames: ReadFrame[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    const frame: ReadFrame = { data: "" };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) frame.event = line.slice("event: ".length);
      else if (line.startsWith("data: ")) data.push(line.slice("data: ".length));
    }
    frame.data = data.join("\n");
    frames.push(frame);
  }
  return frames;
}

/** The JSON of every frame but `[DONE]`. */
export function frameData(frames: readonly ReadFrame[]): Array<Record<string, unknown>> {
  return frames.filter((frame) => frame.data !== "[DONE]").map((frame) => JSON.parse(frame.data));
}

/**
 * A response or completion with what differs between two runs of the same request replaced: ids
 * (`resp_`, `msg_`, `fc_`, `chatcmpl-`), creation times, the FakeRunner's numbered call ids, and with
 * `tokens` the token counts (a real run's prompt differs from one session to the next).
 */
export function withoutRunIdentity(value: unknown, options: { tokens?: boolean } = {}): unknown {
  let text = JSON.stringify(value)
    .replace(/"(resp|msg|fc)_[0-9a-f]{24}"/gu, '"$1_ID"')
    .replace(/"chatcmpl-[0-9a-f]{24}"/gu, '"chatcmpl-ID"')
    .replace(/"(created|created_at)":\d+/gu, '"$1":0')
    .replace(/"call_\d+"/gu, '"call_N"');
  if (options.tokens === true) text = text.replace(/"(\w+)_tokens":\d+/gu, '"$1_tokens":0');
  return JSON.parse(text);
}
