import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import type { ServerLimits } from "../http-server/index.js";
import { openRawConnection } from "../http-server/raw-connection.test-support.js";
import { createMcpFrontend } from "./create-mcp-frontend.js";
import { testServeShared } from "./mcp-frontend.test-support.js";
import { type HttpMcpServer, type ServeMcpHttpOptions, serveMcpHttp } from "./serve-mcp-http.js";
import { EMPTY_SOURCE, INITIALIZE_REQUEST, memorySessions } from "./serve-mcp-http.test-support.js";

// `mcp serve --http` in process on 127.0.0.1 (a real server, raw sockets): it listens through the gateway's
// hardened server and the gateway's bind rule, with the limits given per instance.

const sockets: Socket[] = [];
const closers: Array<() => Promise<void>> = [];
const raw = (port: number, text: string) => openRawConnection(port, text, sockets);

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const close of closers.splice(0)) await close();
});

async function start(
  options: Partial<ServeMcpHttpOptions> & { limits?: ServerLimits },
): Promise<HttpMcpServer> {
  const frontend = createMcpFrontend({
    source: EMPTY_SOURCE,
    ...testServeShared({ tools: [], sessions: memorySessions(), log: () => {} }),
  });
  const server = await serveMcpHttp(frontend, { port: 0, host: "127.0.0.1", ...options });
  closers.push(async () => {
    await server.close();
    await frontend.close();
  });
  return server;
}

/** The head of a POST /mcp whose body is `length` bytes; a client that sends less holds the request open. */
function postHead(length: number, close = false): string {
  return (
    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
    `Accept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n` +
    `${close ? "Connection: close\r\n" : ""}\r\n`
  );
}

describe("serveMcpHttp: the hardened server's limits", () => {
  it("answers a connection beyond the cap 503 with Retry-After in JSON-RPC, while the cap's requests are in progress", async () => {
    const server = await start({ limits: { maxConnections: 2 } });
    // Two requests whose bodies never finish: both slots are busy, so neither can be evicted.
    const held = [raw(server.port, `${postHead(1_000)}{"json`), raw(server.port, `${postHead(1_000)}{"json`)];
    await Promise.all(held.map((connection) => connection.connected));
    const beyond = raw(
      server.port,
      `${postHead(Buffer.byteLength(INITIALIZE_REQUEST), true)}${INITIALIZE_REQUEST}`,
    );
    const answer = await beyond.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /u);
    expect(answer).toMatch(/\r\nRetry-After: 1\r\n/iu);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as {
      jsonrpc: string;
      error: { code: number; message: string };
    };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toContain("connection or file limit");
    // The held requests are still open: the cap refused the newcomer, it did not cut them.
    for (const connection of held) expect(connection.socket.destroyed).toBe(false);
  });

  it("cuts a slowloris client that never finishes its headers at the header timeout", async () => {
    const server = await start({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 1_000 } });
    const slow = raw(server.port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await slow.connected;
    // One more header line every 50 ms: the connection is never idle, but the headers never end.
    const drip = setInterval(() => {
      if (!slow.socket.destroyed) slow.socket.write("X-Drip: 1\r\n");
    }, 50);
    try {
      const answer = await slow.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /u);
    } finally {
      clearInterval(drip);
    }
  }, 10_000);

  it("keeps a client that sends its headers in time, with the same limits", async () => {
    const server = await start({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 1_000 } });
    const answer = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: INITIALIZE_REQUEST,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("mcp-session-id")).toMatch(/\S/u);
    await answer.body?.cancel();
  });
});

describe("serveMcpHttp: where it may bind (the gateway's rule)", () => {
  it.each([
    { probe: "an empty token on loopback", options: { token: "" }, says: "gateway.auth.token is empty" },
    {
      probe: "a whitespace token on loopback",
      options: { token: "  " },
      says: "gateway.auth.token is empty",
    },
    {
      probe: "0.0.0.0 without a token or keys",
      options: { host: "0.0.0.0" },
      says: "Refusing to listen on 0.0.0.0",
    },
  ])("refuses $probe before listening (CONFIG_INVALID)", async ({ options, says }) => {
    let thrown: unknown;
    try {
      await start(options);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toContain(says);
    expect((thrown as Error).message).toContain("gateway.auth.token");
  });

  it("binds loopback by default", async () => {
    const frontend = createMcpFrontend({
      source: EMPTY_SOURCE,
      ...testServeShared({ tools: [], sessions: memorySessions(), log: () => {} }),
    });
    const server = await serveMcpHttp(frontend, { port: 0 });
    closers.push(async () => {
      await server.close();
      await frontend.close();
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/u);
  });
});
