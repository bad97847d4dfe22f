import { describe, expect, it } from "vitest";
import { createApprovalBroker } from "../../runtime/approvals/index.js";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createGateway } from "./create-gateway.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import { errorOf, startTestGateway } from "./gateway.test-support.js";

const TOKEN = "tsk-9f8e7d6c5b4a39281706f5e4d3c2b1a0";

type Probe = {
  name: string;
  method?: "GET" | "POST";
  path: string;
  authorization?: string;
  status: number;
};

const GUARDED: Probe[] = [
  { name: "healthz without a header", path: "/healthz", status: 200 },
  { name: "healthz with a wrong token", path: "/healthz", authorization: "Bearer nope", status: 200 },
  { name: "no header", path: "/v1/sessions", status: 401 },
  { name: "empty header", path: "/v1/sessions", authorization: "", status: 401 },
  { name: "wrong token", path: "/v1/sessions", authorization: "Bearer wrong-token", status: 401 },
  { name: "right token, Basic scheme", path: "/v1/sessions", authorization: `Basic ${TOKEN}`, status: 401 },
  { name: "token without scheme", path: "/v1/sessions", authorization: TOKEN, status: 401 },
  { name: "scheme without token", path: "/v1/sessions", authorization: "Bearer ", status: 401 },
  { name: "token prefix", path: "/v1/sessions", authorization: `Bearer ${TOKEN.slice(0, -1)}`, status: 401 },
  { name: "token plus suffix", path: "/v1/sessions", authorization: `Bearer ${TOKEN}x`, status: 401 },
  {
    name: "token in other case",
    path: "/v1/sessions",
    authorization: `Bearer ${TOKEN.toUpperCase()}`,
    status: 401,
  },
  { name: "two tokens", path: "/v1/sessions", authorization: `Bearer ${TOKEN} ${TOKEN}`, status: 401 },
  { name: "right token", path: "/v1/sessions", authorization: `Bearer ${TOKEN}`, status: 200 },
  {
    name: "right token, lower-case scheme",
    path: "/v1/sessions",
    authorization: `bearer ${TOKEN}`,
    status: 200,
  },
  { name: "effective surface without a token", path: "/v1/tools/effective", status: 401 },
  { name: "effective surface", path: "/v1/tools/effective", authorization: `Bearer ${TOKEN}`, status: 200 },
  { name: "approvals without a token", path: "/v1/approvals", status: 401 },
  { name: "approvals", path: "/v1/approvals", authorization: `Bearer ${TOKEN}`, status: 200 },
  { name: "decision without a token", method: "POST", path: "/v1/approvals/appr_x", status: 401 },
  { name: "run without a token", method: "POST", path: "/v1/responses", status: 401 },
  {
    name: "chat run with a wrong token",
    method: "POST",
    path: "/v1/chat/completions",
    authorization: "Bearer x",
    status: 401,
  },
  { name: "run", method: "POST", path: "/v1/responses", authorization: `Bearer ${TOKEN}`, status: 200 },
  { name: "unknown path without a token (no route discovery)", path: "/v1/secret-admin", status: 401 },
  {
    name: "unknown path with the token",
    path: "/v1/secret-admin",
    authorization: `Bearer ${TOKEN}`,
    status: 404,
  },
];

const OPEN: Probe[] = [
  { name: "no header", path: "/v1/sessions", status: 200 },
  { name: "any header", path: "/v1/sessions", authorization: "Bearer whatever", status: 200 },
  { name: "run", method: "POST", path: "/v1/responses", status: 200 },
  { name: "healthz", path: "/healthz", status: 200 },
];

async function send(url: string, probe: Probe): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (probe.authorization !== undefined) headers.authorization = probe.authorization;
  const method = probe.method ?? "GET";
  const body =
    probe.path === "/v1/chat/completions"
      ? JSON.stringify({ messages: [{ role: "user", content: "hi" }] })
      : probe.path.startsWith("/v1/approvals/")
        ? JSON.stringify({ decision: "allow" })
        : JSON.stringify({ input: "hi" });
  return fetch(`${url}${probe.path}`, { method, headers, ...(method === "POST" ? { body } : {}) });
}

describe("gateway auth: token configured", () => {
  it.each(GUARDED)("$name → $status", async (probe) => {
    const test = await startTestGateway({ authToken: TOKEN, approvals: createApprovalBroker() });
    const response = await send(test.url, probe);
    expect(response.status).toBe(probe.status);
    const text = await response.text();
    if (probe.status === 401) {
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(JSON.parse(text)).toEqual({
        error: {
          message: "Missing or invalid bearer token.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      });
      expect(test.runner.requests).toHaveLength(0);
    }
    expect(text).not.toContain(TOKEN);
    expect(test.logs.join("\n")).not.toContain(TOKEN);
    const logged = `${probe.method ?? "GET"} ${probe.path} ${probe.status} `;
    expect(test.logs.some((line) => line.startsWith(logged))).toBe(true);
  });

  it("logs refused requests with their status", async () => {
    const test = await startTestGateway({ authToken: TOKEN });
    await test.get("/v1/sessions", { authorization: "Bearer wrong" });
    expect(test.logs.some((line) => line.startsWith("GET /v1/sessions 401 "))).toBe(true);
  });

  it("the 401 body passes the gateway's error-shape check", async () => {
    const test = await startTestGateway({ authToken: TOKEN });
    const response = await test.get("/v1/sessions");
    expect(await errorOf(response)).toMatchObject({ code: "invalid_api_key" });
  });
});

describe("gateway auth: no token configured", () => {
  it.each(OPEN)("$name → $status", async (probe) => {
    const test = await startTestGateway();
    const response = await send(test.url, probe);
    expect(response.status).toBe(probe.status);
    expect(response.headers.get("www-authenticate")).toBeNull();
  });

  it("refuses an empty token instead of running open", async () => {
    const sessions = createFileSessionStore("/nonexistent-toolsift-state");
    let thrown: unknown;
    try {
      createGateway({ runner: new FakeRunner(sessions), sessions, authToken: "" });
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toContain("gateway.auth.token");
  });
});
