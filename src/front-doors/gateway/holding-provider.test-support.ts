import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake provider does with one request: answer it with Responses output items, or hold it. */
export type HoldingReply = { output: unknown[] } | "hold";

/** One request the fake provider received. */
export interface ReceivedRequest {
  index: number;
  body: Record<string, unknown>;
  /** Resolves when the connection closed while the request was still unanswered. */
  readonly closedUnanswered: Promise<void>;
  /** True once `closedUnanswered` resolved. */
  readonly wasClosed: boolean;
  /** Answers a held request (ignored once its connection is gone). */
  answer(output: unknown[]): void;
}

/** A provider speaking the OpenAI Responses API on 127.0.0.1 that can hold requests and never answer them. */
export interface HoldingProvider {
  /** Base URL for a provider's `baseUrl` (`…/v1`). */
  baseUrl: string;
  readonly requests: readonly ReceivedRequest[];
  /** Resolves with request `index` (0-based) once it arrived. */
  request(index: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server standing in for a hosted model: `reply(index)` says whether request `index` is
 * answered at once or held (never answered unless the test calls `answer`). Every request records when its
 * connection closes before an answer, which is how a test sees that the gateway cancelled it.
 */
export async function startHoldingProvider(
  reply: (index: number) => HoldingReply = () => "hold",
): Promise<HoldingProvider> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Map<number, Array<(request: ReceivedRequest) => void>>();
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const index = requests.length;
      let answered = false;
      let closed = false;
      let markClosed: () => void = () => {};
      const closedUnanswered = new Promise<void>((resolve) => {
        markClosed = resolve;
      });
      response.on("close", () => {
        if (answered) return;
        closed = true;
        markClosed();
      });
      const answer = (output: unknown[]) => {
        if (answered || closed) return;
        answered = true;
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(responsesAnswer(index, output)));
      };
      const received: ReceivedRequest = {
        index,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
        closedUnanswered,
        get wasClosed() {
          return closed;
        },
        answer,
      };
      requests.push(received);
      for (const resolve of waiters.get(index) ?? []) resolve(received);
      waiters.delete(index);
      const planned = reply(index);
      if (planned !== "hold") answer(planned.output);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    request(index) {
      const arrived = requests[index];
      if (arrived) return Promise.resolve(arrived);
      return new Promise((resolve) => {
        waiters.set(index, [...(waiters.get(index) ?? []), resolve]);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A Responses API answer with these output items. */
function responsesAnswer(index: number, output: unknown[]) {
  return {
    id: `resp_${index}`,
    object: "response",
    created_at: 0,
    status: "completed",
    model: "held-model",
    output,
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
}

/** A Responses `function_call` output item. */
export function functionCallItem(callId: string, name: string, args: unknown = {}): unknown {
  return {
    type: "function_call",
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    status: "completed",
  };
}

/** A Responses assistant `message` output item. */
export function messageItem(text: string): unknown {
  return {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}
