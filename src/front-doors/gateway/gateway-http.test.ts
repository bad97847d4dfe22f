import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { type ExactAnswer, readAnswer } from "../http-server/raw-connection.test-support.js";
import { errorOf, startTestGateway } from "./gateway.test-support.js";

/**
 * Sends a request with node:http, writing `chunks` one by one (chunked unless a content-length header is
 * given). The server may answer before the upload ends: write errors after the answer are expected.
 */
function rawRequest(
  url: string,
  options: { path: string; headers?: Record<string, string>; chunks: Buffer[] },
): Promise<ExactAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}${options.path}`,
      { method: "POST", headers: options.headers ?? {} },
      (response) => {
        readAnswer(response).then(resolve, reject);
      },
    );
    let answered = false;
    request.on("response", () => {
      answered = true;
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const writeNext = (index: number): void => {
      if (answered || request.destroyed) return;
      const chunk = options.chunks[index];
      if (chunk === undefined) {
        request.end();
        return;
      }
      request.write(chunk, () => writeNext(index + 1));
    };
    writeNext(0);
  });
}

describe("gateway routes", () => {
  it("GET /healthz answers ok", async () => {
    const test = await startTestGateway();
    const response = await test.get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, providers: {} });
  });

  it("GET /v1/tools/effective answers the runner's surface for the agent (default main)", async () => {
    const test = await startTestGateway();
    const main = await test.get("/v1/tools/effective");
    expect(main.status).toBe(200);
    expect(await main.json()).toEqual(await test.runner.effectiveSurface("main"));
    const helper = await test.get("/v1/tools/effective?agent=helper");
    expect(((await helper.json()) as { agentId: string }).agentId).toBe("helper");
  });

  it("GET /v1/tools/effective refuses an unknown agent (404) and a malformed one (400)", async () => {
    const test = await startTestGateway();
    const unknown = await test.get("/v1/tools/effective?agent=ghost");
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ type: "not_found_error", param: "agent" });
    const malformed = await test.get("/v1/tools/effective?agent=..%2Fx");
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).param).toBe("agent");
  });

  it("GET /v1/tools/effective answers a runner failure with a generic 500", async () => {
    const test = await startTestGateway();
    const response = await test.get("/v1/tools/effective?agent=broken");
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error.message).not.toContain("/secret/path");
    expect(test.logs.join("\n")).toContain("surface exploded");
  });

  it("GET /v1/sessions lists the sessions, filtered by ?agent", async () => {
    const test = await startTestGateway();
    await test.post("/v1/responses", { input: "a" }, { "x-toolsift-session": "one" });
    await test.post(
      "/v1/responses",
      { input: "b" },
      { "x-toolsift-session": "two", "x-toolsift-agent": "helper" },
    );
    const all = (await (await test.get("/v1/sessions")).json()) as {
      object: string;
      data: Array<{ agentId: string; sessionKey: string; updatedAt: string; bytes: number }>;
    };
    expect(all.object).toBe("list");
    expect(all.data.map((session) => `${session.agentId}/${session.sessionKey}`).sort()).toEqual([
      "helper/two",
      "main/one",
    ]);
    expect(all.data.every((session) => session.bytes > 0)).toBe(true);
    const helper = (await (await test.get("/v1/sessions?agent=helper")).json()) as { data: unknown[] };
    expect(helper.data).toHaveLength(1);
  });

  it("GET /v1/sessions/:key answers the session's events", async () => {
    const test = await startTestGateway();
    await test.post("/v1/responses", { input: "remember me" }, { "x-toolsift-session": "shown" });
    const response = await test.get("/v1/sessions/shown");
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      agentId: string;
      sessionKey: string;
      events: Array<{ type: string }>;
    };
    expect(body.agentId).toBe("main");
    expect(body.sessionKey).toBe("shown");
    expect(body.events.map((event) => event.type)).toEqual(["session", "user-input", "assistant-output"]);
    const otherAgent = await test.get("/v1/sessions/shown?agent=helper");
    expect(otherAgent.status).toBe(404);
  });

  it.each([
    ["a missing session", "/v1/sessions/nope", 404, "key"],
    ["an encoded path separator", "/v1/sessions/..%2F..%2Fetc", 400, "key"],
    ["a leading dot", "/v1/sessions/.hidden", 400, "key"],
    ["a key over 128 characters", `/v1/sessions/${"k".repeat(129)}`, 400, "key"],
    ["a malformed agent", "/v1/sessions/ok?agent=a%2Fb", 400, "agent"],
  ])("GET /v1/sessions/:key refuses %s", async (_name, path, status, param) => {
    const test = await startTestGateway();
    const response = await test.get(path);
    expect(response.status).toBe(status);
    expect((await errorOf(response)).param).toBe(param);
  });

  it("answers an unknown route with a 404 error object", async () => {
    const test = await startTestGateway();
    for (const path of ["/", "/v1/embeddings", "/v1/responses/extra", "/v1/sessions/a/b"]) {
      const response = await test.get(path);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).type).toBe("not_found_error");
    }
  });

  it.each([
    ["GET", "/v1/responses", "POST"],
    ["PUT", "/v1/chat/completions", "POST"],
    ["POST", "/healthz", "GET, HEAD"],
    ["DELETE", "/v1/sessions/abc", "GET, HEAD"],
    ["POST", "/v1/tools/effective", "GET, HEAD"],
  ])("answers %s %s with 405 and Allow: %s", async (method, path, allow) => {
    const test = await startTestGateway();
    const response = await fetch(`${test.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(await errorOf(response)).toMatchObject({
      type: "invalid_request_error",
      code: "method_not_allowed",
    });
  });

  it.each([
    ["invalid JSON", "{ input: nope"],
    ["a truncated body", '{"input": "x"'],
    ["an empty body", ""],
  ])("answers %s with a 400 error object", async (_name, body) => {
    const test = await startTestGateway();
    for (const path of ["/v1/responses", "/v1/chat/completions"]) {
      const response = await test.post(path, body);
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ type: "invalid_request_error", code: "invalid_json" });
    }
    expect(test.runner.requests).toHaveLength(0);
  });

  it("refuses a JSON body sent under another content type with 415, and runs nothing", async () => {
    const test = await startTestGateway();
    const response = await fetch(`${test.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: JSON.stringify({ input: "curl style" }),
    });
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toMatchObject({ code: "unsupported_media_type" });
    expect(test.runner.requests).toHaveLength(0);
  });

  it("logs one line per request with method, path, status and duration", async () => {
    const test = await startTestGateway();
    await test.get("/healthz");
    await test.post("/v1/responses", { input: "x" });
    await test.get("/nowhere");
    await test.post("/v1/responses", "{bad");
    expect(test.logs).toEqual([
      expect.stringMatching(/^GET \/healthz 200 \d+ms$/u),
      expect.stringMatching(/^POST \/v1\/responses 200 \d+ms$/u),
      expect.stringMatching(/^GET \/nowhere 404 \d+ms$/u),
      expect.stringMatching(/^POST \/v1\/responses 400 \d+ms$/u),
    ]);
  });
});

describe("body cap", () => {
  const CAP = 4096;

  it("refuses a declared Content-Length over the cap with 413, before reading the body", async () => {
    const test = await startTestGateway({ maxBodyBytes: CAP });
    const body = Buffer.from(JSON.stringify({ input: "x".repeat(CAP) }));
    const outcome = await rawRequest(test.url, {
      path: "/v1/responses",
      headers: { "content-type": "application/json", "content-length": String(body.length) },
      chunks: [body],
    });
    expect(outcome.status).toBe(413);
    const error = JSON.parse(outcome.body) as { error: { type: string; code: string; message: string } };
    expect(error.error).toMatchObject({ type: "invalid_request_error", code: "request_too_large" });
    expect(error.error.message).toContain(String(CAP));
    expect(test.runner.requests).toHaveLength(0);
  });

  it("refuses a chunked body once the bytes read pass the cap", async () => {
    const test = await startTestGateway({ maxBodyBytes: CAP });
    const chunks = [
      Buffer.from('{"input":"'),
      ...Array.from({ length: 8 }, () => Buffer.alloc(1024, 0x61)),
      Buffer.from('"}'),
    ];
    const outcome = await rawRequest(test.url, {
      path: "/v1/chat/completions",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks,
    });
    expect(outcome.status).toBe(413);
    expect(outcome.body).toContain("request_too_large");
    expect(test.runner.requests).toHaveLength(0);
  });

  it("accepts a chunked body under the cap", async () => {
    const test = await startTestGateway({ maxBodyBytes: CAP });
    const outcome = await rawRequest(test.url, {
      path: "/v1/responses",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks: [Buffer.from('{"input":'), Buffer.from('"small"}')],
    });
    expect(outcome.status).toBe(200);
    expect(JSON.parse(outcome.body)).toMatchObject({ output_text: "echo: small" });
  });

  it("keeps the default cap at 1 MiB", async () => {
    const test = await startTestGateway();
    const justUnder = JSON.stringify({ input: "y".repeat(1024 * 1024 - 20) });
    expect(Buffer.byteLength(justUnder)).toBeLessThanOrEqual(1024 * 1024);
    expect((await test.post("/v1/responses", justUnder)).status).toBe(200);
    const over = JSON.stringify({ input: "y".repeat(1024 * 1024) });
    expect((await test.post("/v1/responses", over)).status).toBe(413);
  });
});
