import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_CLI, readLine, stopChild, tempDir } from "../../runtime/mcp-client/mcp.test-support.js";
import { sendExact } from "../http-server/raw-connection.test-support.js";
import { writeNotesConfig } from "./mcp-server.test-support.js";
import { INITIALIZE_REQUEST } from "./serve-mcp-http.test-support.js";

const TOKEN = "test-token-guard-0123456789";
const LISTED_ORIGIN = "http://app.example:3000";
/** What a well-behaved Streamable HTTP client sends with a POST. */
const CLIENT_HEADERS = {
  authorization: `Bearer ${TOKEN}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Requests `mcp serve --http` must refuse before they reach the MCP transport (no session is opened). */
const REFUSED: Array<{
  probe: string;
  method?: string;
  headers: Record<string, string>;
  status: number;
  says: string;
}> = [
  {
    probe: "a rebound DNS name",
    headers: { ...CLIENT_HEADERS, host: "evil.example:80" },
    status: 403,
    says: "DNS rebinding",
  },
  {
    probe: "a name that starts like loopback",
    headers: { ...CLIENT_HEADERS, host: "127.0.0.1.evil.example" },
    status: 403,
    says: "DNS rebinding",
  },
  {
    probe: "an unlisted Origin",
    headers: { ...CLIENT_HEADERS, origin: "https://evil.example" },
    status: 403,
    says: "gateway.cors.allowOrigins",
  },
  {
    probe: "Origin null",
    headers: { ...CLIENT_HEADERS, origin: "null" },
    status: 403,
    says: "gateway.cors.allowOrigins",
  },
  {
    probe: "a preflight from an unlisted Origin",
    method: "OPTIONS",
    headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    status: 403,
    says: "gateway.cors.allowOrigins",
  },
  {
    probe: "a text/plain body",
    headers: { ...CLIENT_HEADERS, "content-type": "text/plain" },
    status: 415,
    says: "send Content-Type: application/json",
  },
  {
    probe: "a form body",
    headers: { ...CLIENT_HEADERS, "content-type": "application/x-www-form-urlencoded" },
    status: 415,
    says: "send Content-Type: application/json",
  },
  {
    probe: "no content type",
    headers: { authorization: CLIENT_HEADERS.authorization, accept: CLIENT_HEADERS.accept },
    status: 415,
    says: "send Content-Type: application/json",
  },
  {
    probe: "no token (checked after Host and Origin)",
    headers: { "content-type": "application/json", accept: CLIENT_HEADERS.accept },
    status: 401,
    says: "Missing or invalid bearer token.",
  },
];

describe("toolsift mcp serve --http (the built CLI): the shared Host, Origin and content-type guard", () => {
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  let serve: ChildProcess | undefined;
  let url: string;
  let stderr = "";

  beforeAll(async () => {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
    dir = await tempDir();
    const config = await writeNotesConfig(dir.path, {
      gateway: { auth: { token: TOKEN }, cors: { allowOrigins: [LISTED_ORIGIN] } },
    });
    serve = spawn(process.execPath, [BUILT_CLI, "mcp", "serve", "--config", config, "--http", "0"], {
      env: { ...process.env, TOOLSIFT_STATE_DIR: join(dir.path, "state") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    serve.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    url = await readLine(serve, /toolsift mcp serve listening on (\S+)/u, "the serve URL", "stderr");
  });

  afterAll(async () => {
    if (serve) await stopChild(serve);
    await dir?.cleanup();
  });

  it.each(REFUSED)("refuses $probe with $status and a JSON-RPC error", async (row) => {
    const answer = await sendExact(url, {
      headers: row.headers,
      ...(row.method === undefined ? { body: INITIALIZE_REQUEST } : { method: row.method }),
    });
    expect(answer.status, answer.body).toBe(row.status);
    const body = JSON.parse(answer.body) as {
      jsonrpc: string;
      id: unknown;
      error: { code: number; message: string };
    };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(body.error.message).toContain(row.says);
    expect(answer.headers["mcp-session-id"]).toBeUndefined();
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("logs Host, Origin and content-type refusals with their reason", () => {
    expect(stderr).toContain("mcp serve: refused POST /mcp: 403 forbidden_host");
    expect(stderr).toContain("mcp serve: refused POST /mcp: 403 forbidden_origin");
    expect(stderr).toContain("mcp serve: refused OPTIONS /mcp: 403 forbidden_origin");
    expect(stderr).toContain("mcp serve: refused POST /mcp: 415 unsupported_media_type");
    expect(stderr).not.toContain(TOKEN);
  });

  it("answers on localhost under any port, without an Origin", async () => {
    const answer = await sendExact(url, {
      headers: { ...CLIENT_HEADERS, host: "localhost:1" },
      body: INITIALIZE_REQUEST,
    });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.headers["mcp-session-id"]).toBeDefined();
  });

  it("answers a preflight from the listed origin with 204 and the MCP headers", async () => {
    const answer = await sendExact(url, {
      method: "OPTIONS",
      headers: {
        origin: LISTED_ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,mcp-session-id,mcp-protocol-version",
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers["access-control-allow-origin"]).toBe(LISTED_ORIGIN);
    expect(answer.headers["access-control-allow-methods"]).toBe("GET, POST, DELETE, OPTIONS");
    const allowed = String(answer.headers["access-control-allow-headers"]).split(", ");
    for (const header of ["authorization", "content-type", "mcp-session-id", "mcp-protocol-version"]) {
      expect(allowed).toContain(header);
    }
  });

  it("serves the listed origin with CORS headers, the session id readable", async () => {
    const answer = await sendExact(url, {
      headers: { ...CLIENT_HEADERS, origin: LISTED_ORIGIN },
      body: INITIALIZE_REQUEST,
    });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBe(LISTED_ORIGIN);
    expect(answer.headers["access-control-expose-headers"]).toBe("mcp-session-id");
    expect(answer.headers["mcp-session-id"]).toBeDefined();
  });
});
