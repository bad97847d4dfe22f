import { rm } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { sendExact } from "../../src/front-doors/http-server/raw-connection.test-support.js";
import { tempDir } from "../operator-safety/operator-safety.test-support.js";
import {
  type BrowserSafetyGateway,
  MARKER_PROMPT,
  markerLines,
  startMarkerGateway,
} from "./browser-safety.test-support.js";

/** The one origin the gateway lists in `gateway.cors.allowOrigins` (spelled as an operator might). */
const LISTED_ORIGIN = "http://App.Example:3000";

/** A request written byte for byte: `head` is the request line and the Host line (or none), then a JSON body. */
function sendRaw(url: string, head: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const socket = connect(Number(target.port), target.hostname);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.write(
      `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

const RUN_BODY = JSON.stringify({ input: MARKER_PROMPT });
/** The same run on the Anthropic Messages route, whose refusals are Anthropic error objects. */
const MESSAGES_PATH = "/v1/messages";
const MESSAGES_BODY = JSON.stringify({
  model: "toolsift",
  max_tokens: 256,
  messages: [{ role: "user", content: MARKER_PROMPT }],
});

/** Requests a web page (or a rebound DNS name) could make; each must be refused and run nothing. */
const REFUSED: Array<{
  probe: string;
  method?: string;
  path?: string;
  headers: Record<string, string>;
  status: number;
  code: string;
  /** On `/v1/messages`: the Anthropic `error.type` the refusal carries instead of the OpenAI object. */
  anthropicType?: string;
}> = [
  {
    probe: "text/plain body",
    headers: { "content-type": "text/plain" },
    status: 415,
    code: "unsupported_media_type",
  },
  {
    probe: "text/plain;charset=UTF-8 (what fetch sends for a string body)",
    headers: { "content-type": "text/plain;charset=UTF-8" },
    status: 415,
    code: "unsupported_media_type",
  },
  {
    probe: "form body",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    status: 415,
    code: "unsupported_media_type",
  },
  {
    probe: "multipart body",
    headers: { "content-type": "multipart/form-data; boundary=x" },
    status: 415,
    code: "unsupported_media_type",
  },
  { probe: "no content type", headers: {}, status: 415, code: "unsupported_media_type" },
  {
    probe: "chat completions, text/plain",
    path: "/v1/chat/completions",
    headers: { "content-type": "text/plain" },
    status: 415,
    code: "unsupported_media_type",
  },
  {
    probe: "messages, text/plain",
    path: MESSAGES_PATH,
    headers: { "content-type": "text/plain;charset=UTF-8" },
    status: 415,
    code: "unsupported_media_type",
    anthropicType: "invalid_request_error",
  },
  {
    probe: "messages, form body",
    path: MESSAGES_PATH,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    status: 415,
    code: "unsupported_media_type",
    anthropicType: "invalid_request_error",
  },
  {
    probe: "messages, JSON from an unlisted origin",
    path: MESSAGES_PATH,
    headers: { "content-type": "application/json", origin: "https://evil.example" },
    status: 403,
    code: "forbidden_origin",
    anthropicType: "permission_error",
  },
  {
    probe: "messages, JSON under a rebound DNS name",
    path: MESSAGES_PATH,
    headers: { "content-type": "application/json", host: "evil.example:18789" },
    status: 403,
    code: "forbidden_host",
    anthropicType: "permission_error",
  },
  {
    probe: "approval decision, text/plain",
    path: "/v1/approvals/appr_000000000000000000000000",
    headers: { "content-type": "text/plain" },
    status: 415,
    code: "unsupported_media_type",
  },
  {
    probe: "JSON from an unlisted origin",
    headers: { "content-type": "application/json", origin: "https://evil.example" },
    status: 403,
    code: "forbidden_origin",
  },
  {
    probe: "JSON from a listed host on another port",
    headers: { "content-type": "application/json", origin: "http://app.example:3001" },
    status: 403,
    code: "forbidden_origin",
  },
  {
    probe: "JSON from Origin null",
    headers: { "content-type": "application/json", origin: "null" },
    status: 403,
    code: "forbidden_origin",
  },
  {
    probe: "text/plain from an unlisted origin",
    headers: { "content-type": "text/plain", origin: "https://evil.example" },
    status: 403,
    code: "forbidden_origin",
  },
  {
    probe: "preflight from an unlisted origin",
    method: "OPTIONS",
    headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    status: 403,
    code: "forbidden_origin",
  },
  {
    probe: "JSON under a rebound DNS name",
    headers: { "content-type": "application/json", host: "evil.example:18789" },
    status: 403,
    code: "forbidden_host",
  },
  {
    probe: "JSON under a name that starts like loopback",
    headers: { "content-type": "application/json", host: "127.0.0.1.evil.example" },
    status: 403,
    code: "forbidden_host",
  },
  {
    probe: "listed origin under a rebound DNS name",
    headers: { "content-type": "application/json", host: "evil.example", origin: LISTED_ORIGIN },
    status: 403,
    code: "forbidden_host",
  },
];

describe("toolsift gateway (real process, mock provider, marker plugin): browser-shaped requests run nothing", () => {
  let root: string;
  let mock: MockOpenAI;
  let gateway: BrowserSafetyGateway;
  let markerPath: string;

  beforeAll(async () => {
    root = await tempDir("browser-refusals");
    markerPath = join(root, "marker.jsonl");
    mock = await startMockOpenAI({ port: 0 });
    gateway = await startMarkerGateway({
      root,
      mock,
      markerPath,
      gateway: { cors: { allowOrigins: [LISTED_ORIGIN] } },
    });
  });

  afterAll(async () => {
    if (gateway) expect(await gateway.cli.stop()).toBe(0);
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.each(REFUSED)("$probe → $status $code", async (row) => {
    const path = row.path ?? "/v1/responses";
    const answer = await sendExact(gateway.url, {
      path,
      headers: row.headers,
      ...(row.method === undefined ? {} : { method: row.method }),
      ...(row.method === "OPTIONS" ? {} : { body: path === MESSAGES_PATH ? MESSAGES_BODY : RUN_BODY }),
    });
    expect(answer.status, answer.body).toBe(row.status);
    if (row.anthropicType === undefined) {
      expect(JSON.parse(answer.body)).toMatchObject({
        error: { type: "invalid_request_error", param: null, code: row.code },
      });
    } else {
      expect(JSON.parse(answer.body)).toEqual({
        type: "error",
        error: { type: row.anthropicType, message: expect.any(String) },
      });
    }
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(await markerLines(markerPath)).toEqual([]);
    expect(mock.requests()).toEqual([]);
    const logged = `refused ${row.method ?? "POST"} ${path}: ${row.status} ${row.code}`;
    // The child's stderr may reach us a moment after its answer.
    await expect.poll(() => gateway.cli.stderr()).toContain(logged);
  });

  it.each([
    ["without any Host header (HTTP/1.0)", "POST /v1/responses HTTP/1.0\r\n"],
    ["with an empty Host header", "POST /v1/responses HTTP/1.1\r\nhost:\r\n"],
  ])("refuses a request %s and runs nothing", async (_probe, head) => {
    const answer = await sendRaw(gateway.url, head, RUN_BODY);
    expect(answer).toMatch(/^HTTP\/1\.[01] 403 /u);
    expect(answer).toContain('"code":"forbidden_host"');
    expect(await markerLines(markerPath)).toEqual([]);
    expect(mock.requests()).toEqual([]);
  });

  it("says at start which origins get CORS", () => {
    expect(gateway.cli.stderr()).toContain(
      `gateway browsers: CORS for ${LISTED_ORIGIN}; other origins are refused`,
    );
  });

  it("checks Host on /healthz too", async () => {
    const answer = await sendExact(gateway.url, {
      method: "GET",
      path: "/healthz",
      headers: { host: "evil.example" },
    });
    expect(answer.status).toBe(403);
    const local = await sendExact(gateway.url, {
      method: "GET",
      path: "/healthz",
      headers: { host: "localhost:1" },
    });
    expect(local.status).toBe(200);
  });

  it("answers a preflight from the listed origin with 204 and the headers the openai client sends", async () => {
    const answer = await sendExact(gateway.url, {
      method: "OPTIONS",
      path: "/v1/responses",
      headers: {
        origin: "http://app.example:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,x-stainless-os,x-toolsift-session",
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers["access-control-allow-origin"]).toBe("http://app.example:3000");
    expect(answer.headers.vary).toContain("Origin");
    expect(answer.headers["access-control-allow-methods"]).toContain("POST");
    const allowed = String(answer.headers["access-control-allow-headers"]).split(", ");
    for (const header of ["authorization", "content-type", "x-stainless-os", "x-toolsift-session"]) {
      expect(allowed).toContain(header);
    }
    expect(mock.requests()).toEqual([]);
  });

  it("serves the listed origin with CORS headers (a run that calls no tool)", async () => {
    const answer = await sendExact(gateway.url, {
      path: "/v1/responses",
      headers: { "content-type": "application/json", origin: "http://app.example:3000" },
      body: JSON.stringify({ input: "hello from the listed page" }),
    });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBe("http://app.example:3000");
    expect(answer.headers["access-control-expose-headers"]).toBe("x-toolsift-agent, x-toolsift-session");
    expect(answer.headers["x-toolsift-session"]).toBeDefined();
    expect(await markerLines(markerPath)).toEqual([]);
  });

  it("control: the same run sent as JSON without an Origin does call the marker tool", async () => {
    const answer = await sendExact(gateway.url, {
      path: "/v1/responses",
      headers: { "content-type": "application/json" },
      body: RUN_BODY,
    });
    expect(answer.status, answer.body).toBe(200);
    expect(await markerLines(markerPath)).toHaveLength(1);
    expect(mock.requests().length).toBeGreaterThan(0);
  });
});
