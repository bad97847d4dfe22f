import { performance } from "node:perf_hooks";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import type { ConversationItem } from "../../runtime/providers/index.js";
import { anthropicErrorBody, openAIErrorBody } from "../../runtime/wire/index.js";
import { chatAnswer, readChatRequest } from "./chat-api.js";
import { chatStreamChunks } from "./chat-stream-chunks.js";
import { MAX_MOCK_BODY_BYTES } from "./limits.js";
import { messagesAnswer, readMessagesRequest } from "./messages-api.js";
import { messagesStreamEvents } from "./messages-stream-events.js";
import { MockRequestError } from "./openai-error.js";
import { planResponse } from "./plan-response.js";
import { field, MOCK_MODEL_ID } from "./planner-input.js";
import { createPromptCache } from "./prompt-cache.js";
import type { RequestLog } from "./request-log.js";
import { type MockTurn, readResponsesRequest, responsesAnswer } from "./responses-api.js";
import { responsesStreamEvents } from "./responses-stream-events.js";
import type { StreamFrame } from "./stream-frame.js";
import type { RecordedRequest } from "./types.js";
import { type AnswerContext, withUniqueCallIds } from "./usage-figures.js";

type MockEnv = { Variables: { recorded: RecordedRequest } };
type MockContext = Context<MockEnv>;

const ROUTES =
  "POST /v1/responses, POST /v1/chat/completions, POST /v1/messages, GET /v1/models, GET /debug/requests?after=<cursor> and GET /healthz";

/**
 * The mock provider's routes. Every `/v1` request is recorded raw (before it is parsed, so refused bodies
 * are logged too); bad requests get OpenAI-style error objects (Anthropic-style on `/v1/messages`) with a
 * 4xx status and never a stack trace.
 */
export function createMockApp(
  log: RequestLog,
  pacing: { pieceDelayMs: number } = { pieceDelayMs: 0 },
): Hono<MockEnv> {
  const app = new Hono<MockEnv>();
  // The one state besides the log: which prompt-cache prefixes `/v1/messages` has seen (usage figures only).
  const promptCache = createPromptCache();

  app.use(
    "/v1/*",
    bodyLimit({
      maxSize: MAX_MOCK_BODY_BYTES,
      onError: (c) => {
        const message = `The request body is larger than ${MAX_MOCK_BODY_BYTES} bytes.`;
        return c.json(
          isAnthropicPath(c.req.path)
            ? anthropicErrorBody("request_too_large", message)
            : openAIErrorBody(message),
          413,
        );
      },
    }),
  );
  app.use("/v1/*", async (c, next) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const recorded = log.record({
      method: c.req.method,
      path: c.req.path,
      body: new TextDecoder().decode(raw),
      bytes: raw.byteLength,
    });
    c.set("recorded", recorded);
    await next();
  });

  app.post("/v1/responses", (c) =>
    answer(c, pacing, { read: readResponsesRequest, write: responsesAnswer, stream: responsesStreamEvents }),
  );
  app.post("/v1/chat/completions", (c) =>
    answer(c, pacing, {
      read: readChatRequest,
      write: chatAnswer,
      stream: (completion, body) =>
        chatStreamChunks(completion, {
          includeUsage: field(field(body, "stream_options"), "include_usage") === true,
        }),
    }),
  );
  app.post("/v1/messages", (c) =>
    answer(c, pacing, {
      read: readMessagesRequest,
      write: (plan, context, body) => messagesAnswer(plan, context, promptCache.account(body)),
      stream: messagesStreamEvents,
      error: (message) => anthropicErrorBody("invalid_request_error", message),
    }),
  );
  app.get("/v1/models", (c) =>
    c.json({
      object: "list",
      data: [{ id: MOCK_MODEL_ID, object: "model", created: 0, owned_by: "toolsift" }],
    }),
  );
  app.get("/debug/requests", (c) => {
    const after = c.req.query("after") ?? "0";
    if (!/^\d{1,15}$/u.test(after))
      return c.json(
        openAIErrorBody("after must be a cursor: a whole number, 0 or more.", { param: "after" }),
        400,
      );
    return c.json({ requests: log.after(Number(after)), cursor: log.lastCursor() });
  });
  app.get("/healthz", (c) => c.json({ status: "ok" }));

  app.notFound((c) => {
    const message = `Unknown route: ${c.req.method} ${c.req.path}. The mock serves ${ROUTES}.`;
    return c.json(
      isAnthropicPath(c.req.path)
        ? anthropicErrorBody("not_found_error", message)
        : openAIErrorBody(message, { code: "not_found" }),
      404,
    );
  });
  app.onError((error, c) => {
    const message = `The mock provider failed: ${error.message}`;
    return c.json(
      isAnthropicPath(c.req.path)
        ? anthropicErrorBody("api_error", message)
        : openAIErrorBody(message, { type: "server_error", code: "internal_error" }),
      500,
    );
  });
  return app;
}

/** How one API reads a request, writes its answer, tells that answer as a stream, and words a refusal. */
type ApiAnswerer<Answer extends object> = {
  read: (body: unknown) => MockTurn;
  write: (plan: readonly ConversationItem[], context: AnswerContext, body: unknown) => Answer;
  stream: (answer: Answer, body: unknown) => StreamFrame[];
  /** The body of a 400 (default: OpenAI's shape). */
  error?: (message: string, param?: string) => object;
};

async function answer<Answer extends object>(
  c: MockContext,
  pacing: { pieceDelayMs: number },
  api: ApiAnswerer<Answer>,
): Promise<Response> {
  const recorded = c.get("recorded");
  const refusal =
    api.error ??
    ((message: string, param?: string) => openAIErrorBody(message, param === undefined ? {} : { param }));
  let body: unknown;
  try {
    body = JSON.parse(recorded.body) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unparseable";
    return c.json(refusal(`The request body is not valid JSON (${reason}). Send a JSON object.`), 400);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return c.json(refusal("The request body must be a JSON object."), 400);
  let turn: MockTurn;
  try {
    turn = api.read(body);
  } catch (error) {
    if (error instanceof MockRequestError) return c.json(refusal(error.message, error.param), 400);
    throw error;
  }
  const plan = withUniqueCallIds(planResponse(turn.planner), recorded.cursor);
  const written = api.write(
    plan,
    {
      cursor: recorded.cursor,
      model: turn.model,
      requestBytes: recorded.bytes,
      ...(turn.namespaces === undefined ? {} : { namespaces: turn.namespaces }),
    },
    body,
  );
  const frames = api.stream(written, body);
  const { pieceDelayMs } = pacing;
  if (field(body, "stream") !== true) {
    // Paced, a whole answer takes as long as its stream would: one delay per piece.
    if (pieceDelayMs > 0) await sleep(pieceDelayMs * frames.filter((frame) => frame.piece).length);
    return c.json(written);
  }
  return streamSSE(c, async (sse) => {
    // Paced, the n-th piece is due n delays after the start (a schedule, so timer lateness never adds up).
    const startedAt = performance.now();
    let pieces = 0;
    try {
      for (const frame of frames) {
        if (frame.piece && pieceDelayMs > 0) {
          pieces += 1;
          const wait = startedAt + pieces * pieceDelayMs - performance.now();
          if (wait > 0) await sleep(wait);
        }
        if (sse.aborted) return;
        await sse.writeSSE({
          data: frame.data,
          ...(frame.event === undefined ? {} : { event: frame.event }),
        });
      }
    } catch {
      // The client left mid-stream: nothing to tell anyone (the request is already logged).
    }
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a path is served in Anthropic's shape (its errors too). */
function isAnthropicPath(path: string): boolean {
  return path === "/v1/messages";
}
