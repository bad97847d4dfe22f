import { mkdtemp, rm } from "node:fs/promises";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createApprovalBroker } from "../../runtime/approvals/index.js";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { openRawConnection } from "../http-server/raw-connection.test-support.js";
import { createGateway } from "./create-gateway.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import type { ServerLimits } from "./types.js";

/** A real gateway on 127.0.0.1 with the given server limits, over a FakeRunner. */
async function start(limits: ServerLimits) {
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-limits-"));
  const sessions = createFileSessionStore(stateDir);
  const runner = new FakeRunner(sessions);
  const logs: string[] = [];
  const gateway = createGateway({
    runner,
    sessions,
    log: (line) => logs.push(line),
    serverLimits: limits,
    approvals: createApprovalBroker(),
  });
  const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  const sockets: Socket[] = [];
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await listener.close();
    await rm(stateDir, { recursive: true, force: true });
  });
  /** A raw connection that writes `text` and reports everything it got back once the server closes it. */
  const raw = (text: string) => openRawConnection(listener.port, text, sockets);
  const post = (text: string) =>
    fetch(`${listener.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: text }),
    });
  return { runner, logs, raw, post, port: listener.port };
}

/** Request headers announcing a 1,000-byte JSON body, and the first bytes of that body. */
const HALF_SENT_BODY =
  "POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n" +
  '{"input":';
/** Request headers that never end. */
const HALF_SENT_HEADERS = "POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: applica";

function noStacks(logs: readonly string[]): string[] {
  return logs.filter((line) => line.startsWith("internal error") || /\n\s+at\s/u.test(line));
}

describe("server limits", () => {
  it("cuts 300 half-sent requests with 408 after the request timeout, and answers a normal request meanwhile", async () => {
    const test = await start({ requestTimeoutMs: 400, headersTimeoutMs: 400 });
    const bodies = Array.from({ length: 250 }, () => test.raw(HALF_SENT_BODY));
    const headers = Array.from({ length: 50 }, () => test.raw(HALF_SENT_HEADERS));

    const normal = await test.post("still here?");
    expect(normal.status).toBe(200);
    expect(((await normal.json()) as { output_text?: string }).output_text).toBe("echo: still here?");

    const answers = await Promise.all([...bodies, ...headers].map((connection) => connection.closed));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /u);
    // Only the normal request reached the runner.
    expect(test.runner.requests).toHaveLength(1);
    // Each half-sent body is one log line; requests whose headers never ended never reached the app.
    await expect
      .poll(() =>
        test.logs.filter((line) => line.endsWith("cut by the request timeout before its body arrived")),
      )
      .toHaveLength(250);
    expect(noStacks(test.logs)).toEqual([]);
  });

  it("does not bound a run by the request timeout: a run that outlasts it still answers", async () => {
    const test = await start({ requestTimeoutMs: 200, headersTimeoutMs: 200 });
    const slow = test.post("hold:slow");
    await test.runner.started("hold:slow");
    // Several timeout checks pass while the run is held (the body arrived long ago).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    test.runner.release("hold:slow");
    const response = await slow;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { output_text?: string }).output_text).toBe("released hold:slow");
  });

  it("logs an upload the client aborts as one line, with no stack and no run", async () => {
    const test = await start({});
    const { socket, closed } = test.raw(HALF_SENT_BODY);
    await expect.poll(() => test.runner.requests.length === 0 && socket.bytesWritten > 0).toBe(true);
    // Give the server the headers before hanging up, so the app is reading the body when the client leaves.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await closed;
    await expect.poll(() => test.logs).toEqual(["POST /v1/responses aborted by client"]);
    expect(test.runner.requests).toHaveLength(0);
    // A chunked upload aborted mid-body is the same single line.
    const chunked = test.raw(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"mes\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    chunked.socket.destroy();
    await chunked.closed;
    await expect.poll(() => test.logs.at(-1)).toBe("POST /v1/chat/completions aborted by client");
    expect(test.logs).toHaveLength(2);
    // So is an approval decision abandoned mid-body.
    const decision = test.raw(
      'POST /v1/approvals/ap_1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"dec\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    decision.socket.destroy();
    await decision.closed;
    await expect.poll(() => test.logs.at(-1)).toBe("POST /v1/approvals/ap_1 aborted by client");
    expect(test.logs).toHaveLength(3);
    expect(noStacks(test.logs)).toEqual([]);
  });

  it("answers a connection beyond maxConnections 503 with Retry-After in the route's API shape", async () => {
    const test = await start({ maxConnections: 3 });
    // Three runs in progress hold every slot: no connection is idle, none can be evicted.
    const held = ["hold:c1", "hold:c2", "hold:c3"].map((label) => test.raw(postText("/v1/responses", label)));
    for (const label of ["hold:c1", "hold:c2", "hold:c3"]) await test.runner.started(label);

    const openai = await test.raw(postText("/v1/responses", "extra")).closed;
    expect(openai).toMatch(/^HTTP\/1\.1 503 /u);
    expect(openai).toContain("Retry-After: 1\r\n");
    expect(JSON.parse(openai.slice(openai.indexOf("\r\n\r\n") + 4))).toMatchObject({
      error: { type: "server_error", code: "server_busy" },
    });
    const anthropic = await test.raw(postText("/v1/messages", "extra")).closed;
    expect(anthropic).toMatch(/^HTTP\/1\.1 503 /u);
    expect(JSON.parse(anthropic.slice(anthropic.indexOf("\r\n\r\n") + 4))).toMatchObject({ type: "error" });
    // The refused requests never reached the runner; the held runs still finish.
    expect(test.runner.requests).toHaveLength(3);
    for (const label of ["hold:c1", "hold:c2", "hold:c3"]) test.runner.release(label);
    // Near the cap, responses close their connection, so each slot comes back at once.
    for (const connection of held)
      expect(await connection.closed).toMatch(/^HTTP\/1\.1 200 [\s\S]*Connection: close/u);
    expect(test.logs.filter((line) => line.includes("connection limit reached"))).toHaveLength(1);
  });

  it("answers runs 503 with Retry-After while the process is out of file descriptors, logging it once", async () => {
    const test = await start({});
    const answers = [];
    for (let index = 0; index < 30; index += 1) answers.push(await test.post("throw:EMFILE"));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("server_busy");
    }
    expect(test.logs.filter((line) => line.includes("EMFILE"))).toEqual([
      "gateway out of file descriptors (EMFILE): requests are answered 503 until descriptors free up; raise the limit (ulimit -n) or lower gateway connections",
    ]);
    expect(noStacks(test.logs)).toEqual([]);
  });

  it("logs a repeated internal error once, as one line, and still answers each request 500", async () => {
    const test = await start({});
    for (let index = 0; index < 10; index += 1) expect((await test.post("throw")).status).toBe(500);
    const errors = test.logs.filter((line) => line.startsWith("internal error"));
    expect(errors).toHaveLength(1);
    // The stack is kept, escaped onto the one line.
    expect(errors[0]).toContain("runner exploded");
    expect(errors[0]).toContain("\\n    at ");
    expect(errors[0]).not.toContain("\n");
  });
});

/** A raw HTTP/1.1 POST of `{ input: text }` (or Messages' shape on /v1/messages) to `path`. */
function postText(path: string, text: string): string {
  const body =
    path === "/v1/messages"
      ? JSON.stringify({ model: "toolsift", max_tokens: 100, messages: [{ role: "user", content: text }] })
      : JSON.stringify({ input: text });
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}
