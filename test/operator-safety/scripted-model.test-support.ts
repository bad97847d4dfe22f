import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One item of the conversation as the scripted model reads it from a Responses API request. */
export type ScriptedItem =
  | { type: "message"; role: string; text: string }
  | { type: "function_call"; callId: string; name: string; arguments: string }
  | { type: "function_call_output"; callId: string; output: string };

/** What the script sees of one request. */
export interface ScriptedTurn {
  /** 0-based position of this request among all requests the model received. */
  index: number;
  /** Text of the last user message. */
  userText: string;
  /** Items after the last user message: this turn's calls and their outputs. */
  items: ScriptedItem[];
  /** Names of the declared function tools. */
  tools: string[];
  /** The `Authorization` header the provider client sent. */
  authorization: string;
}

/** One output item the scripted model answers with. */
export type ScriptedOutput =
  | { type: "message"; text: string }
  | { type: "function_call"; name: string; arguments: unknown };

/** The script's answer: output items, or an OpenAI-style error with an HTTP status. */
export type ScriptedAnswer = { output: ScriptedOutput[] } | { status: number; message: string };

/** Decides the answer to one request. */
export type ModelScript = (turn: ScriptedTurn) => ScriptedAnswer;

/** A scripted stand-in for a hosted model, served over real HTTP (Responses API only). */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Raw bodies received, oldest first. */
  bodies(): string[];
  /** Replaces the script (the next request uses it). */
  setScript(script: ModelScript): void;
  close(): Promise<void>;
}

/**
 * Starts a scripted model on 127.0.0.1 (port 0): for model behaviour the mock planner cannot produce (exact
 * tool arguments) in tests that drive a real gateway process. Call ids are unique for the server's life.
 */
export async function startScriptedModel(initial: ModelScript): Promise<ScriptedModel> {
  let script = initial;
  const bodies: string[] = [];
  let calls = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const index = bodies.length;
      bodies.push(raw);
      let answer: ScriptedAnswer;
      try {
        answer = script(readTurn(raw, index, request.headers.authorization ?? ""));
      } catch (error) {
        answer = { status: 500, message: `the script failed: ${String(error)}` };
      }
      if ("status" in answer) {
        const error = { message: answer.message, type: "invalid_request_error", param: null, code: null };
        reply(response, answer.status, { error });
        return;
      }
      const output = answer.output.map((item, position) => {
        if (item.type === "message") {
          return {
            type: "message",
            id: `msg_${index}_${position}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: item.text, annotations: [] }],
          };
        }
        calls += 1;
        return {
          type: "function_call",
          id: `fc_${index}_${position}`,
          call_id: `call_scripted_${calls}`,
          name: item.name,
          arguments: typeof item.arguments === "string" ? item.arguments : JSON.stringify(item.arguments),
          status: "completed",
        };
      });
      reply(response, 200, {
        id: `resp_${index}`,
        object: "response",
        status: "completed",
        output,
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bodies: () => [...bodies],
    setScript(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The outputs of this turn's calls, in call order (`name` and `output`). */
export function answeredCalls(turn: ScriptedTurn): Array<{ name: string; output: string }> {
  const outputs = new Map<string, string>();
  for (const item of turn.items)
    if (item.type === "function_call_output") outputs.set(item.callId, item.output);
  return turn.items.flatMap((item) => {
    if (item.type !== "function_call") return [];
    const output = outputs.get(item.callId);
    return output === undefined ? [] : [{ name: item.name, output }];
  });
}

/**
 * The common script shape: on the first request of a turn make `calls`, and once they are answered reply
 * with `answer(outputs)`.
 */
export function callThenAnswer(
  calls: ScriptedOutput[],
  answer: (outputs: string[]) => string = (outputs) => `Done. ${outputs.join(" ")}`,
): ModelScript {
  return (turn) => {
    const answered = answeredCalls(turn);
    if (answered.length === 0) return { output: calls };
    return { output: [{ type: "message", text: answer(answered.map((call) => call.output)) }] };
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function readTurn(raw: string, index: number, authorization: string): ScriptedTurn {
  const body = JSON.parse(raw) as { input?: unknown; tools?: unknown };
  const items = (Array.isArray(body.input) ? body.input : []).flatMap(readItem);
  let last = -1;
  for (const [position, item] of items.entries())
    if (item.type === "message" && item.role === "user") last = position;
  const user = items[last];
  const tools = Array.isArray(body.tools)
    ? body.tools.map((tool) => String((tool as { name?: unknown }).name))
    : [];
  return {
    index,
    userText: user?.type === "message" ? user.text : "",
    items: items.slice(last + 1),
    tools,
    authorization,
  };
}

function readItem(value: unknown): ScriptedItem[] {
  if (typeof value !== "object" || value === null) return [];
  const item = value as Record<string, unknown>;
  if (item.type === "function_call") {
    return [
      {
        type: "function_call",
        callId: String(item.call_id),
        name: String(item.name),
        arguments: String(item.arguments),
      },
    ];
  }
  if (item.type === "function_call_output") {
    return [{ type: "function_call_output", callId: String(item.call_id), output: String(item.output) }];
  }
  if (typeof item.role === "string") {
    const content = item.content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((part) => String((part as { text?: unknown }).text ?? "")).join("")
          : "";
    return [{ type: "message", role: item.role, text }];
  }
  return [];
}
