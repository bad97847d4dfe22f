import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterEach } from "vitest";
import { isToolsiftError, type ToolsiftError } from "../../shared/errors/index.js";

/** One scripted answer: a status, headers and a JSON (or raw text) body; `hang` never answers. */
export type ScriptedReply =
  | { status: number; headers?: Record<string, string>; json?: unknown; text?: string }
  | { hang: true }
  | StreamedReply;

/**
 * A `text/event-stream` answer: the frames (raw SSE text), one write each, and then what the server does:
 * `end` the response cleanly, `cut` the connection without ending it, or `hang` with it open.
 */
export type StreamedReply = {
  frames: readonly string[];
  ending: "end" | "cut" | "hang";
  /** The content type sent. Default `text/event-stream`. */
  contentType?: string;
};

/** What the scripted server saw. */
export type SeenRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };

/** A real HTTP server on 127.0.0.1:0 that answers each request with the next scripted reply (the last repeats). */
export type ScriptedServer = { baseUrl: string; seen: SeenRequest[]; close(): Promise<void> };

/** Starts a scripted server for provider failure tests (429, 5xx, 401, hanging, malformed answers). */
export async function startScriptedServer(replies: readonly ScriptedReply[]): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const reply = replies[Math.min(seen.length, replies.length) - 1];
      if (reply === undefined || "hang" in reply) return;
      if ("frames" in reply) {
        streamReply(response, reply);
        return;
      }
      const body = reply.text ?? JSON.stringify(reply.json ?? {});
      response.writeHead(reply.status, {
        "content-type": reply.text === undefined ? "application/json" : "text/plain",
        ...reply.headers,
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function streamReply(response: ServerResponse, reply: StreamedReply): void {
  response.writeHead(200, {
    "content-type": reply.contentType ?? "text/event-stream",
    "cache-control": "no-cache",
  });
  for (const frame of reply.frames) response.write(frame);
  if (reply.ending === "end") response.end();
  // Once the frames are flushed, drop the connection without the closing chunk: a stream broken mid-way.
  else if (reply.ending === "cut") response.write("", () => response.socket?.destroy());
}

/** One SSE frame with an `event:` name (Responses API style): the data is `{ type, ...fields }`. */
export function namedEvent(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

/** One SSE frame with only `data:` (Chat Completions style): JSON, or raw text such as `[DONE]`. */
export function dataFrame(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** A Chat Completions chunk for choice 0 with the given delta (and finish_reason). */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return dataFrame({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
}

/** A minimal valid Chat Completions answer with one assistant text. */
export function chatReply(text: string): ScriptedReply {
  return {
    status: 200,
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    },
  };
}

/** An OpenAI-style error reply. */
export function errorReply(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): ScriptedReply {
  return { status, headers, json: { error: { message, type: "error", param: null, code: null } } };
}

/**
 * A `serve(...replies)` for a test file: it starts a scripted server, and every server it started is
 * closed after each test.
 */
export function scriptedServers(): (...replies: ScriptedReply[]) => Promise<ScriptedServer> {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (...replies) => {
    server = await startScriptedServer(replies);
    return server;
  };
}

/** The ToolsiftError `promise` rejects with; fails the test if it resolves or rejects with anything else. */
export async function providerFailure(promise: Promise<unknown>): Promise<ToolsiftError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isToolsiftError(error)) throw new Error(`expected a ToolsiftError, got ${String(error)}`);
  return error;
}
