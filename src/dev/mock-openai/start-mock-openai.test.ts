import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { startMockOpenAI } from "./start-mock-openai.js";
import type { MockOpenAI, RecordedRequest } from "./types.js";

let mock: MockOpenAI;
let origin: string;

beforeAll(async () => {
  mock = await startMockOpenAI({ port: 0 });
  origin = mock.baseUrl.replace(/\/v1$/u, "");
});

afterAll(async () => {
  await mock.close();
});

async function post(path: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const QA_TOOL = {
  name: "fake_plugin_tool_17",
  description: "A QA tool.",
  parameters: { type: "object", properties: { marker: { type: "string" } }, required: ["marker"] },
};

describe("startMockOpenAI", () => {
  it("listens on 127.0.0.1 with an ephemeral port and reports its base URL", () => {
    expect(mock.port).toBeGreaterThan(0);
    expect(mock.baseUrl).toBe(`http://127.0.0.1:${mock.port}/v1`);
  });

  it("answers /healthz and /v1/models", async () => {
    expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: "ok" });
    const models = (await (await fetch(`${mock.baseUrl}/models`)).json()) as {
      object: string;
      data: unknown[];
    };
    expect(models.object).toBe("list");
    expect(models.data).toEqual([{ id: "toolsift-mock", object: "model", created: 0, owned_by: "toolsift" }]);
  });

  it("fails with a clear error when the port is taken", async () => {
    const error = await startMockOpenAI({ port: mock.port }).catch((reason: unknown) => reason);
    expect(isToolsiftError(error)).toBe(true);
    expect((error as Error).message).toBe(
      `The mock OpenAI provider could not listen: port ${mock.port} on 127.0.0.1 is already in use. Pick another port, or 0 for a free one.`,
    );
  });

  it("refuses a port out of range", async () => {
    const error = await startMockOpenAI({ port: 70_000 }).catch((reason: unknown) => reason);
    expect((error as Error).message).toBe("port must be a whole number from 0 to 65535; got 70000.");
  });
});

describe("POST /v1/responses", () => {
  it("answers in the Responses shape with a function call, ids and usage", async () => {
    const body = JSON.stringify({
      model: "gpt-test",
      instructions: "sys",
      input: [{ role: "user", content: [{ type: "input_text", text: "go target=fake_plugin_tool_17" }] }],
      tools: [{ type: "function", ...QA_TOOL, strict: false }],
      store: false,
    });
    const { status, json } = await post("/v1/responses", body);
    const cursor = mock.requests().at(-1)?.cursor;
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: `resp_${cursor}`,
      object: "response",
      status: "completed",
      model: "gpt-test",
      output: [
        {
          type: "function_call",
          id: `fc_${cursor}_0`,
          call_id: `call_${cursor}_1`,
          name: "fake_plugin_tool_17",
          arguments: '{"marker":"qa"}',
          status: "completed",
        },
      ],
      output_text: "",
      usage: {
        input_tokens: Math.ceil(Buffer.byteLength(body) / 4),
        output_tokens: Math.ceil(("fake_plugin_tool_17".length + '{"marker":"qa"}'.length) / 4),
      },
    });
  });

  it("answers a plain string input with an assistant message", async () => {
    const { json } = await post("/v1/responses", JSON.stringify({ model: "m", input: "hello" }));
    expect(json.output).toEqual([
      {
        type: "message",
        id: expect.stringMatching(/^msg_\d+_0$/u) as unknown,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "mock: hello", annotations: [] }],
      },
    ]);
    expect(json.output_text).toBe("mock: hello");
  });
});

describe("POST /v1/chat/completions", () => {
  it("answers in the Chat Completions shape with tool calls and usage", async () => {
    const body = JSON.stringify({
      model: "m",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "target=fake_plugin_tool_17" },
      ],
      tools: [{ type: "function", function: QA_TOOL }],
    });
    const { status, json } = await post("/v1/chat/completions", body);
    const cursor = mock.requests().at(-1)?.cursor;
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: `chatcmpl-${cursor}`,
      object: "chat.completion",
      model: "m",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: `call_${cursor}_1`,
                type: "function",
                function: { name: "fake_plugin_tool_17", arguments: '{"marker":"qa"}' },
              },
            ],
          },
        },
      ],
      usage: { prompt_tokens: Math.ceil(Buffer.byteLength(body) / 4) },
    });
  });

  it("reads tool messages and answers with their text", async () => {
    const { json } = await post(
      "/v1/chat/completions",
      JSON.stringify({
        model: "m",
        messages: [
          { role: "user", content: [{ type: "text", text: "target=fake_plugin_tool_17" }] },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "fake_plugin_tool_17", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "c1", content: "FAKE_PLUGIN_OK" },
        ],
        tools: [{ type: "function", function: QA_TOOL }],
      }),
    );
    expect(json.choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: "Done. FAKE_PLUGIN_OK", refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ]);
  });
});

describe("bad requests get OpenAI-style errors and are still logged", () => {
  it.each<[string, string, string, string | null]>([
    ["/v1/responses", "{not json", "The request body is not valid JSON", null],
    ["/v1/chat/completions", "", "The request body is not valid JSON", null],
    ["/v1/responses", "[1,2]", "The request body must be a JSON object.", null],
    ["/v1/responses", '{"model":"m"}', "input is required: a string or a list of input items.", "input"],
    // A streamed request that is refused gets the same JSON error, before any event.
    ["/v1/responses", '{"stream":true}', "input is required: a string or a list of input items.", "input"],
    [
      "/v1/chat/completions",
      '{"stream":true}',
      "messages is required: a non-empty list of messages.",
      "messages",
    ],
    ["/v1/responses", '{"input":"x","tools":{}}', "tools must be a list of tool objects.", "tools"],
    [
      "/v1/responses",
      '{"input":[{"type":"function_call"}]}',
      "input[0]: a function_call needs call_id and name.",
      "input[0]",
    ],
    [
      "/v1/chat/completions",
      '{"messages":[]}',
      "messages is required: a non-empty list of messages.",
      "messages",
    ],
    [
      "/v1/chat/completions",
      '{"messages":[{"role":"tool","content":"x"}]}',
      "messages[0]: a tool message needs tool_call_id.",
      "messages[0]",
    ],
  ])("%s %s", async (path, body, message, param) => {
    const before = mock.requests().length;
    const { status, json } = await post(path, body);
    expect(status).toBe(400);
    const error = json.error as { message: string; type: string; param: string | null };
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe(param);
    expect(error.message).not.toMatch(/\n\s+at /u);
    const logged = mock.requests().slice(before);
    expect(logged.map((request) => [request.path, request.body])).toEqual([[path, body]]);
  });

  it("answers an unknown route with 404 and the list of routes", async () => {
    const response = await fetch(`${mock.baseUrl}/embeddings`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    const json = (await response.json()) as { error: { message: string } };
    expect(json.error.message).toContain(
      "Unknown route: POST /v1/embeddings. The mock serves POST /v1/responses",
    );
  });
});

describe("GET /debug/requests", () => {
  it("returns every raw body in order, with cursors, and only newer ones after a cursor", async () => {
    const start = (await (await fetch(`${origin}/debug/requests`)).json()) as {
      requests: RecordedRequest[];
      cursor: number;
    };
    expect(start.cursor).toBe(start.requests.at(-1)?.cursor ?? 0);
    const first = '{"model":"m","input":"first ✓"}';
    const second = '{ "model": "m", "input": "second" }';
    await post("/v1/responses", first);
    await post("/v1/responses", second);
    const newer = (await (await fetch(`${origin}/debug/requests?after=${start.cursor}`)).json()) as {
      requests: RecordedRequest[];
      cursor: number;
    };
    expect(newer.requests.map((request) => request.body)).toEqual([first, second]);
    expect(newer.requests.map((request) => request.cursor)).toEqual([start.cursor + 1, start.cursor + 2]);
    expect(newer.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/responses",
      bytes: Buffer.byteLength(first),
    });
    expect(newer.requests[0]?.bytes).toBe(first.length + 2);
    expect(Number.isNaN(Date.parse(newer.requests[0]?.at ?? ""))).toBe(false);
    expect(newer.cursor).toBe(start.cursor + 2);
    expect(mock.requests().slice(-2)).toEqual(newer.requests);

    const none = (await (await fetch(`${origin}/debug/requests?after=${newer.cursor}`)).json()) as {
      requests: RecordedRequest[];
      cursor: number;
    };
    expect(none).toEqual({ requests: [], cursor: newer.cursor });
  });

  it("does not log its own or health requests", async () => {
    const before = mock.requests().length;
    await fetch(`${origin}/debug/requests`);
    await fetch(`${origin}/healthz`);
    expect(mock.requests()).toHaveLength(before);
  });

  it.each(["-1", "abc", "1.5"])("refuses after=%s", async (after) => {
    const response = await fetch(`${origin}/debug/requests?after=${after}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe("after");
  });
});

describe("close", () => {
  it("stops listening, so the port can be taken again", async () => {
    const own = await startMockOpenAI();
    await fetch(`${own.baseUrl}/models`);
    await own.close();
    await own.close();
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen(own.port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => probe.close(resolve));
  });
});
