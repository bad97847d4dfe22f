import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it, onTestFinished } from "vitest";
import { startTestGateway } from "../gateway.test-support.js";
import { anthropicError, sdkError } from "./anthropic-error.test-support.js";

// `POST /v1/messages` behind the shared guard (src/runtime/http-guard): the token as `x-api-key` or a bearer token,
// Origin, Host and content type, each refusal in Anthropic's shape and running nothing; CORS for the
// headers the official `@anthropic-ai/sdk` client sends.

const TOKEN = "messages-secret-token";
const PAGE = "http://localhost:5173";
const BODY = { model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "hi" }] };

describe("POST /v1/messages behind the shared guard (token, Origin, Host, content type)", () => {
  // node:http rather than fetch: fetch may not set Host.
  const send = (url: string, headers: Record<string, string>) => postRaw(url, headers, JSON.stringify(BODY));
  const json = { "content-type": "application/json" };

  it.each([
    ["no credentials", { ...json }, 401, "authentication_error"],
    ["x-api-key", { ...json, "x-api-key": TOKEN }, 200, undefined],
    ["Authorization: Bearer", { ...json, authorization: `Bearer ${TOKEN}` }, 200, undefined],
    ["both, right", { ...json, authorization: `Bearer ${TOKEN}`, "x-api-key": TOKEN }, 200, undefined],
    ["a wrong x-api-key", { ...json, "x-api-key": "nope" }, 401, "authentication_error"],
    [
      "a right key beside a wrong bearer",
      { ...json, authorization: "Bearer no", "x-api-key": TOKEN },
      401,
      "authentication_error",
    ],
    [
      "an unlisted Origin",
      { ...json, "x-api-key": TOKEN, origin: "https://evil.example" },
      403,
      "permission_error",
    ],
    ["a rebound Host", { ...json, "x-api-key": TOKEN, host: "evil.example" }, 403, "permission_error"],
    ["text/plain", { "content-type": "text/plain", "x-api-key": TOKEN }, 415, "invalid_request_error"],
    ["no content type", { "x-api-key": TOKEN }, 415, "invalid_request_error"],
  ] as const)("%s → %i", async (_name, headers, status, type) => {
    const test = await startTestGateway({ authToken: TOKEN, allowOrigins: [PAGE] });
    const response = await send(test.url, headers);
    expect(response.status).toBe(status);
    if (type === undefined) {
      expect(test.runner.requests).toHaveLength(1);
      return;
    }
    const error = await anthropicError(response);
    expect(error.type).toBe(type);
    expect(error.message).not.toContain(TOKEN);
    if (status === 401) expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(test.runner.requests).toHaveLength(0);
  });

  it("the SDK's apiKey and authToken both pass; a wrong key is an AuthenticationError", async () => {
    const test = await startTestGateway({ authToken: TOKEN });
    const credentials = [
      { apiKey: TOKEN }, // sent as Authorization: Bearer by this SDK version
      { authToken: TOKEN, apiKey: null },
      { apiKey: null, defaultHeaders: { "x-api-key": TOKEN } }, // what older SDKs and many tools send
    ];
    for (const credential of credentials) {
      const client = new Anthropic({ baseURL: test.url, maxRetries: 0, ...credential });
      const message = await client.messages.create(BODY as Anthropic.MessageCreateParamsNonStreaming);
      expect(message.content).toEqual([{ type: "text", text: "echo: hi" }]);
    }
    const wrong = new Anthropic({ baseURL: test.url, apiKey: "wrong", maxRetries: 0 });
    const error = await sdkError(wrong.messages.create(BODY as Anthropic.MessageCreateParamsNonStreaming));
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error.type).toBe("authentication_error");
  });

  it("x-api-key works on the OpenAI routes too; their refusals keep the OpenAI shape", async () => {
    const test = await startTestGateway({ authToken: TOKEN });
    const chat = await test.post(
      "/v1/chat/completions",
      { messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": TOKEN },
    );
    expect(chat.status).toBe(200);
    const refused = await test.post("/v1/responses", { input: "hi" }, { "x-api-key": "wrong" });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "invalid_api_key", param: null } });
  });

  it("a listed origin's preflight allows every header the Anthropic client sends, and answers carry CORS", async () => {
    const names = await anthropicClientHeaders();
    expect(names).toEqual(expect.arrayContaining(["authorization", "anthropic-version", "content-type"]));
    names.push("x-api-key");
    const test = await startTestGateway({ authToken: TOKEN, allowOrigins: [PAGE] });
    const preflight = await fetch(`${test.url}/v1/messages`, {
      method: "OPTIONS",
      headers: {
        origin: PAGE,
        "access-control-request-method": "POST",
        "access-control-request-headers": names.join(","),
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").split(", ");
    for (const name of names) expect(allowed).toContain(name);
    const refused = await send(test.url, { ...json, origin: PAGE });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(PAGE);
    const answered = await send(test.url, { ...json, origin: PAGE, "x-api-key": TOKEN });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("access-control-allow-origin")).toBe(PAGE);
  });
});

/** A POST with exactly these headers (Host included), answered as a fetch `Response`. */
function postRaw(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${url}/v1/messages`, { method: "POST", headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (typeof value === "string") answer.set(name, value);
        }
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers: answer }));
      });
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** The header names the official Anthropic client sends from a browser page, read off a real request. */
async function anthropicClientHeaders(): Promise<string[]> {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((request, response) => {
    seen = request.headers;
    response.writeHead(400, { "content-type": "application/json" });
    response.end('{"type":"error","error":{"type":"invalid_request_error","message":"captured"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const client = new Anthropic({
    baseURL: `http://127.0.0.1:${port}`,
    apiKey: "page-key",
    maxRetries: 0,
    dangerouslyAllowBrowser: true,
  });
  await client.messages.create(BODY as Anthropic.MessageCreateParamsNonStreaming).catch(() => undefined);
  const simple = new Set([
    "accept",
    "accept-language",
    "accept-encoding",
    "host",
    "connection",
    "content-length",
  ]);
  return Object.keys(seen).filter((name) => !simple.has(name) && !name.startsWith("sec-"));
}
