/** One server-sent event as the lane read it, with the wall-clock time (ms) its last byte arrived. */
export type TimedFrame = { event?: string; data: string; receivedAt: number };

/** A streamed answer as the client saw it: its frames, its text deltas, how it ended and what it adds up to. */
export type LaneStream = {
  contentType: string | null;
  frames: TimedFrame[];
  /** Every text delta (`response.output_text.delta`, a chunk's `delta.content`), in order. */
  textDeltas: Array<{ text: string; receivedAt: number }>;
  /** The last frame's event type (Responses), or its data (`[DONE]` for Chat); undefined for no frame. */
  terminal: string | undefined;
  /**
   * The answer the stream adds up to: `response.completed`'s response (Responses), or a `chat.completion`
   * rebuilt from the chunks (Chat); undefined when the stream does not carry one.
   */
  final: unknown;
  /** Frames that are not JSON, and error frames (`error`, `response.failed`, a chunk with `error`). */
  problems: string[];
};

/**
 * Reads a `text/event-stream` body frame by frame as it arrives (blank-line separated, `event:` and `data:`
 * lines), noting each frame's arrival time. A plain reader rather than the `openai` client: the lane checks
 * exactly what the client library hides (arrival times, raw frames, `[DONE]`).
 */
export async function readLaneStream(response: Response, api: "responses" | "chat"): Promise<LaneStream> {
  const frames: TimedFrame[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  const take = (blocks: string[], receivedAt: number) => {
    for (const block of blocks) {
      const frame = parseFrame(block, receivedAt);
      if (frame) frames.push(frame);
    }
  };
  if (response.body) {
    for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true }).replace(/\r\n?/gu, "\n");
      const blocks = buffered.split("\n\n");
      buffered = blocks.pop() ?? "";
      take(blocks, Date.now());
    }
  }
  take([buffered + decoder.decode()], Date.now());
  return api === "responses" ? readResponsesFrames(response, frames) : readChatFrames(response, frames);
}

function parseFrame(block: string, receivedAt: number): TimedFrame | undefined {
  if (block.trim() === "") return undefined;
  const data: string[] = [];
  let event: string | undefined;
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) event = line.slice("event:".length).trim();
    else if (line.startsWith("data:")) data.push(line.slice("data:".length).replace(/^ /u, ""));
  }
  return { ...(event === undefined ? {} : { event }), data: data.join("\n"), receivedAt };
}

function readResponsesFrames(response: Response, frames: TimedFrame[]): LaneStream {
  const problems: string[] = [];
  const textDeltas: LaneStream["textDeltas"] = [];
  let final: unknown;
  for (const [index, frame] of frames.entries()) {
    const event = parseObject(frame.data);
    if (!event) {
      problems.push(`frame ${index + 1} is not a JSON object: ${frame.data.slice(0, 80)}`);
      continue;
    }
    if (event.type !== frame.event)
      problems.push(`frame ${index + 1} is named ${frame.event} but has type ${String(event.type)}`);
    if (event.type === "response.output_text.delta" && typeof event.delta === "string")
      textDeltas.push({ text: event.delta, receivedAt: frame.receivedAt });
    if (event.type === "response.completed") final = event.response;
    if (event.type === "error" || event.type === "response.failed")
      problems.push(`the stream carried ${String(event.type)}: ${frame.data.slice(0, 200)}`);
  }
  return {
    contentType: response.headers.get("content-type"),
    frames,
    textDeltas,
    terminal: frames.at(-1)?.event,
    final,
    problems,
  };
}

type ChatChunk = {
  id?: string;
  created?: number;
  model?: string;
  choices?: Array<{ delta?: { role?: string; content?: string | null }; finish_reason?: string | null }>;
  usage?: unknown;
  error?: unknown;
};

function readChatFrames(response: Response, frames: TimedFrame[]): LaneStream {
  const problems: string[] = [];
  const textDeltas: LaneStream["textDeltas"] = [];
  const chunks: ChatChunk[] = [];
  for (const [index, frame] of frames.entries()) {
    if (frame.data === "[DONE]") continue;
    const chunk = parseObject(frame.data) as ChatChunk | undefined;
    if (!chunk) {
      problems.push(`frame ${index + 1} is not a JSON object: ${frame.data.slice(0, 80)}`);
      continue;
    }
    if (chunk.error !== undefined) problems.push(`the stream carried an error: ${frame.data.slice(0, 200)}`);
    chunks.push(chunk);
    const content = chunk.choices?.[0]?.delta?.content;
    if (typeof content === "string" && content.length > 0)
      textDeltas.push({ text: content, receivedAt: frame.receivedAt });
  }
  const first = chunks[0];
  const final =
    first === undefined
      ? undefined
      : {
          id: first.id,
          object: "chat.completion",
          created: first.created,
          model: first.model,
          choices: [
            {
              index: 0,
              message: {
                role: first.choices?.[0]?.delta?.role,
                content: textDeltas.map((delta) => delta.text).join(""),
                refusal: null,
              },
              finish_reason: chunks.map((chunk) => chunk.choices?.[0]?.finish_reason).find(Boolean) ?? null,
              logprobs: null,
            },
          ],
          usage: chunks.find((chunk) => chunk.choices?.length === 0 && chunk.usage)?.usage,
        };
  return {
    contentType: response.headers.get("content-type"),
    frames,
    textDeltas,
    terminal: frames.at(-1)?.data,
    final,
    problems,
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
