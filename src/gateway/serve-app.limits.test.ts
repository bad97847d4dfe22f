import { mkdtemp, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createApprovalBroker } from "../approvals/index.js";
import { createFileSessionStore } from "../sessions/index.js";
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
  const raw = (text: string): { socket: Socket; closed: Promise<string> } => {
    const socket = connect(listener.port, "127.0.0.1");
    sockets.push(socket);
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", () => {});
    if (text.length > 0) socket.write(text);
    const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
    return { socket, closed };
  };
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

  it("closes connections beyond maxConnections at once, and serves again once they are gone", async () => {
    const test = await start({ maxConnections: 10 });
    const held = Array.from({ length: 10 }, () => test.raw(""));
    await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once("connect", resolve))));
    // Let the server accept all ten before the eleventh arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = test.raw("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(await extra.closed).toBe("");
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map(({ closed }) => closed));
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${test.port}/healthz`).catch(() => undefined))?.status)
      .toBe(200);
  });
});
