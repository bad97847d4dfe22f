import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { sendRawBytes } from "../http-server/raw-connection.test-support.js";
import { createGateway } from "./create-gateway.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import type { GatewayListener } from "./types.js";

/** Characters that break or disguise a log line: C0, DEL, C1, U+2028/2029, bidi overrides and isolates. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

let dir: string;
let listener: GatewayListener;
const logs: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolsift-gateway-log-"));
  const sessions = createFileSessionStore(dir);
  const gateway = createGateway({
    runner: new FakeRunner(sessions),
    sessions,
    log: (line) => logs.push(line),
  });
  listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await listener?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Sends raw request bytes and resolves with the answer once the server closes the connection. */
function send(request: Buffer): Promise<string> {
  return sendRawBytes(listener.port, request);
}

const request = (target: string, headers = "") =>
  Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`, "latin1");

describe("gateway log: a stranger cannot forge or disguise a line before auth", () => {
  it.each([
    ["%0a (line feed)", request("/x%0aGET%20/v1/responses%20200%2030ms"), "/x\\nGET /v1/responses 200 30ms"],
    ["%0d (carriage return)", request("/x%0dforged"), "/x\\rforged"],
    ["%1b (terminal escape)", request("/x%1b[31mred"), "/x\\x1b[31mred"],
    ["%00 (NUL)", request("/x%00y"), "/x\\x00y"],
    ["%e2%80%a8 (line separator)", request("/x%e2%80%a8y"), "/x\\u2028y"],
    ["%c2%85 (next line, C1)", request("/x%c2%85y"), "/x\\x85y"],
    ["%e2%80%ae (right-to-left override)", request("/x%e2%80%aey"), "/x\\u202ey"],
  ])("%s in the path is logged escaped on one line", async (_probe, bytes, shown) => {
    const before = logs.length;
    const answer = await send(bytes);
    expect(answer).toMatch(/^HTTP\/1\.1 (400|404) /u);
    const written = logs.slice(before);
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) expect(line).not.toMatch(UNSAFE);
    expect(written.some((line) => line.includes(shown))).toBe(true);
  });

  it("refuses raw control bytes in the request target before any route, logging nothing raw", async () => {
    const before = logs.length;
    for (const bytes of [[0x0b], [0x1b, 0x5b], [0x7f], [0xe2, 0x80, 0xa8], [0xc2, 0x9b]]) {
      const answer = await send(
        Buffer.concat([
          Buffer.from("GET /raw", "latin1"),
          Buffer.from(bytes),
          Buffer.from("y HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", "latin1"),
        ]),
      );
      // Node's HTTP parser refuses bytes outside the URL character set: the app never sees them.
      expect(answer).toMatch(/^HTTP\/1\.1 400 /u);
    }
    for (const line of logs.slice(before)) expect(line).not.toMatch(UNSAFE);
  });

  it("escapes a header value the guard logs (an Origin with C1 bytes)", async () => {
    const before = logs.length;
    const origin = Buffer.concat([
      Buffer.from("Origin: https://evil.example", "latin1"),
      Buffer.from([0x85, 0x9b]),
      Buffer.from("31m\r\n", "latin1"),
    ]);
    const answer = await send(
      Buffer.concat([
        Buffer.from("POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", "latin1"),
        origin,
        Buffer.from("Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", "latin1"),
      ]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 /u);
    const written = logs.slice(before);
    for (const line of written) expect(line).not.toMatch(UNSAFE);
    expect(written.some((line) => line.includes("https://evil.example\\x85\\x9b31m"))).toBe(true);
  });
});
