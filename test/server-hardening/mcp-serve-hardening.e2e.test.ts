import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRawBytes } from "../../src/front-doors/http-server/raw-connection.test-support.js";
import {
  type ServerProcess,
  silentSocket,
  spawnServer,
  tempDir,
  writeConfig,
} from "./server-hardening.test-support.js";

/** Characters that break or disguise a log line: C0, DEL, C1, U+2028/2029, bidi overrides and isolates. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe("toolsift mcp serve --http: the gateway's server hardening", () => {
  let dir: string;
  let server: ServerProcess;
  let port: number;

  beforeAll(async () => {
    dir = await tempDir("mcp-serve");
    const { configPath, env } = await writeConfig(dir, {});
    server = await spawnServer({ args: ["mcp", "serve", "--http", "0", "--config", configPath], env });
    port = Number(new URL(server.url).port);
  });

  afterAll(async () => {
    server?.kill("SIGKILL");
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("closes idle sockets that never send a request (the header timeout), though the client holds them", async () => {
    // Before: nothing closed them for about 87 s.
    const idle = Array.from({ length: 5 }, () => silentSocket(port));
    await Promise.all(idle.map((connection) => connection.connected));
    await Promise.all(idle.map((connection) => connection.closed));
  }, 60_000);

  it("logs a refused Origin carrying C1 control bytes escaped, on one line", async () => {
    const before = server.stderr().length;
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const answer = await sendRawBytes(
      port,
      Buffer.concat([
        Buffer.from(
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nOrigin: https://evil.example",
          "latin1",
        ),
        Buffer.from([0x85, 0x9b]),
        Buffer.from(
          `31m\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          "latin1",
        ),
      ]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 /u);
    await expect.poll(() => server.stderr().slice(before)).toContain("https://evil.example\\x85\\x9b31m");
    for (const line of server.stderr().slice(before).split("\n")) expect(line).not.toMatch(UNSAFE);
  });

  it("exits 0 on SIGTERM", async () => {
    server.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
  });
});
