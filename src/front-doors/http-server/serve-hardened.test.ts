import type { Socket } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { BUSY_RETRY_AFTER_SECONDS } from "./limits.js";
import { openRawConnection } from "./raw-connection.test-support.js";
import { type ServerLimits, serveHardened } from "./serve-hardened.js";

/** A hardened server whose `/hold/<label>` requests wait for `release(label)`; everything else is "ok". */
async function start(limits: ServerLimits, handler?: (request: Request) => Response | Promise<Response>) {
  const logs: string[] = [];
  const gates = new Map<string, () => void>();
  const served = await serveHardened({
    fetch:
      handler ??
      (async (request) => {
        const label = /^\/hold\/(.+)$/u.exec(new URL(request.url).pathname)?.[1];
        if (label !== undefined) await new Promise<void>((resolve) => gates.set(label, resolve));
        return new Response("ok");
      }),
    port: 0,
    host: "127.0.0.1",
    limits,
    name: "test server",
    listen: { name: "the test server", portOption: "port", bindOption: "host" },
    renderBusy: (path) => ({ busy: path }),
    log: (line) => logs.push(line),
  });
  const sockets: Socket[] = [];
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    for (const release of gates.values()) release();
    await served.close();
  });
  /** A raw connection that writes `text` and reports everything it got back once it is closed. */
  const raw = (text: string) => openRawConnection(served.port, text, sockets);
  /** GET `path`, retried (at most 200 times) while the server answers 503 or drops the connection. */
  const getEventually = async (
    path: string,
  ): Promise<{ status: number; text: string; refusals: Response[] }> => {
    const refusals: Response[] = [];
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const response = await fetch(`${served.url}${path}`).catch(() => undefined);
      if (response?.status === 200) return { status: 200, text: await response.text(), refusals };
      if (response !== undefined) refusals.push(response);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no 200 for ${path} after 200 attempts`);
  };
  const release = (label: string) => gates.get(label)?.();
  return { served, logs, raw, getEventually, release, gates };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

describe("serveHardened: connections beyond the cap", () => {
  it("answers 503 with Retry-After in the server's error shape, then closes, while every slot is busy", async () => {
    const test = await start({ maxConnections: 4 });
    // Four requests in progress: no connection is idle, so none can be evicted.
    const busy = ["a", "b", "c", "d"].map((label) => test.raw(get(`/hold/${label}`)));
    await expect.poll(() => test.gates.size).toBe(4);

    const extra = await test.raw(get("/v1/responses?x=1")).closed;
    expect(extra).toMatch(/^HTTP\/1\.1 503 /u);
    expect(extra).toContain(`Retry-After: ${BUSY_RETRY_AFTER_SECONDS}\r\n`);
    expect(extra).toContain("Connection: close\r\n");
    expect(extra.endsWith('{"busy":"/v1/responses"}')).toBe(true);
    expect(test.logs.filter((line) => line.includes("connection limit reached"))).toHaveLength(1);

    // The held requests are still answered.
    for (const label of ["a", "b", "c", "d"]) test.release(label);
    for (const connection of busy) {
      connection.socket.end();
      expect(await connection.closed).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/u);
    }
  });

  it("answers connections beyond the 503 allowance 503 at once, before they send anything, logging that once", async () => {
    const test = await start({ maxConnections: 2 });
    const busy = ["a", "b"].map((label) => test.raw(get(`/hold/${label}`)));
    await expect.poll(() => test.gates.size).toBe(2);
    // 2 served + 16 held for a 503 to their request (REFUSAL_MIN); the rest are answered as they connect.
    const flood = Array.from({ length: 40 }, () => test.raw(""));
    const answers = await Promise.all(flood.map((connection) => connection.closed));
    const turnedAway = answers.filter((answer) => answer.startsWith("HTTP/1.1 503 "));
    expect(turnedAway.length).toBeGreaterThanOrEqual(40 - 16);
    for (const answer of turnedAway) {
      expect(answer).toContain(`Retry-After: ${BUSY_RETRY_AFTER_SECONDS}\r\n`);
      expect(answer.endsWith('{"busy":"/"}')).toBe(true);
    }
    // The others were refused slots that never sent a request: closed under pressure, unanswered.
    expect(answers.filter((answer) => answer === "")).toHaveLength(40 - turnedAway.length);
    expect(test.logs.filter((line) => line.includes("answered 503 at once"))).toHaveLength(1);
    for (const label of ["a", "b"]) test.release(label);
    await Promise.all(busy.map((connection) => connection.closed));
  });

  it("under pressure closes silent and header-less sockets early, and a legitimate request gets through", async () => {
    // Long header timeouts: only the pressure rule can close these sockets within the test.
    const test = await start({ maxConnections: 20, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const silent = Array.from({ length: 30 }, () => test.raw(""));
    const slowHeaders = Array.from({ length: 5 }, () =>
      test.raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "),
    );
    await Promise.all([...silent, ...slowHeaders].map((connection) => connection.connected));

    const legit = await test.getEventually("/hello");
    expect(legit.text).toBe("ok");
    for (const refusal of legit.refusals) {
      expect(refusal.status).toBe(503);
      expect(refusal.headers.get("retry-after")).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    }
    // Every silent and header-less socket is closed by the server, though the client holds it open.
    await Promise.all([...silent, ...slowHeaders].map((connection) => connection.closed));
  }, 30_000);

  it("evicts the longest-idle connection for a new one once the cap is reached", async () => {
    const test = await start({ maxConnections: 3, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const idle = Array.from({ length: 3 }, () => test.raw(""));
    await Promise.all(idle.map((connection) => connection.connected));
    const legit = await test.getEventually("/after-eviction");
    expect(legit.text).toBe("ok");
    await Promise.race(idle.map((connection) => connection.closed));
  }, 30_000);
});

describe("serveHardened: send timeout", () => {
  it("destroys a connection whose client stopped reading a streamed response", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const test = await start(
      { sendTimeoutMs: 300 },
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              controller.enqueue(chunk);
            },
          }),
        ),
    );
    const reader = test.raw(get("/stream"));
    await reader.connected;
    // Read the head of the response, then stop reading for good.
    await new Promise<void>((resolve) => reader.socket.once("data", () => resolve()));
    reader.socket.pause();
    await expect
      .poll(() => test.logs.filter((line) => line.includes("send timeout")), { timeout: 20_000 })
      .toHaveLength(1);
    // Reading again, the client finds the connection ended by the server (the body never completed).
    reader.socket.resume();
    const received = await reader.closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /u);
    expect(received).not.toMatch(/\r\n0\r\n\r\n$/u);
    // The server still answers others (this handler streams forever: the status is enough).
    const again = await fetch(`${test.served.url}/again`);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  }, 30_000);

  it("does not cut a response that is slow to produce while the client reads", async () => {
    const test = await start({ sendTimeoutMs: 100 });
    const held = fetch(`${test.served.url}/hold/slow`);
    await expect.poll(() => test.gates.size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    test.release("slow");
    const response = await held;
    expect(await response.text()).toBe("ok");
    expect(test.logs.filter((line) => line.includes("send timeout"))).toEqual([]);
  });
});

describe("serveHardened: errors accepting connections", () => {
  it("logs EMFILE once however often it happens, and keeps serving", async () => {
    const test = await start({});
    for (let index = 0; index < 100; index += 1) {
      test.served.server.emit(
        "error",
        Object.assign(new Error("accept EMFILE"), { code: "EMFILE", errno: -24, syscall: "accept" }),
      );
    }
    expect(test.logs).toEqual([
      "test server: cannot accept connections: out of file descriptors (EMFILE); raise the limit (ulimit -n) or lower the connection cap",
    ]);
    expect((await test.getEventually("/still")).text).toBe("ok");
  });

  it("escapes control characters in its own log lines", async () => {
    const test = await start({});
    test.served.server.emit(
      "error",
      Object.assign(new Error("odd\nforged line\u001b[31m"), { code: "EODD" }),
    );
    expect(test.logs).toEqual(["test server: server error: EODD odd forged line\\x1b[31m"]);
  });
});

describe("serveHardened: a start that cannot listen", () => {
  it("rejects with CONFIG_INVALID naming the address and the option that moves it when the port is in use", async () => {
    const test = await start({});
    let thrown: unknown;
    try {
      const second = await serveHardened({
        fetch: () => new Response("ok"),
        port: test.served.port,
        host: "127.0.0.1",
        name: "second server",
        listen: { name: "the second server", portOption: "--port", bindOption: "--bind" },
        renderBusy: () => ({}),
        log: () => {},
      });
      await second.close();
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toBe(
      `the second server cannot listen on 127.0.0.1:${test.served.port}: the port is in use. Stop the other process, or pick another port (--port; 0 picks a free one).`,
    );
  });
});
