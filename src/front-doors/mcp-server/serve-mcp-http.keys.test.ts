import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { AuthKey } from "../../runtime/http-guard/index.js";
import type { SessionEvent, SessionStore } from "../../runtime/sessions/index.js";
import { createMcpFrontend } from "./create-mcp-frontend.js";
import { testServeShared } from "./mcp-frontend.test-support.js";
import { type HttpMcpServer, serveMcpHttp } from "./serve-mcp-http.js";

// `mcp serve --http` with client keys: a request needs a key with `runs` whose agents (when listed) include
// "mcp", and an MCP session answers only the key that initialized it.

const KEYS: AuthKey[] = [
  { id: "alice", token: "tsk-mcp-alice-0123456789abcdef", scopes: ["runs"] },
  { id: "bob", token: "tsk-mcp-bob-fedcba9876543210", scopes: ["runs", "sessions:read"] },
  { id: "reader", token: "tsk-mcp-reader-00112233445566", scopes: ["sessions:read"] },
  { id: "main-only", token: "tsk-mcp-main-only-99887766", scopes: ["runs"], agents: ["main"] },
  { id: "ops", token: "tsk-mcp-ops-aabbccddeeff0011", scopes: ["admin"] },
];
const tokenOf = (id: string) => KEYS.find((key) => key.id === id)?.token ?? "";

const note: ToolDefinition = {
  name: "notes_add",
  description: "Add a note.",
  origin: { kind: "plugin", owner: "notes" },
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: async () => ({ content: [{ type: "text", text: "noted" }] }),
};

const written: SessionEvent[] = [];
const memory: SessionStore = {
  append: async (_agentId, _sessionKey, event) => {
    written.push(event);
  },
  read: async () => [],
  list: async () => [],
};
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close().catch(() => {})));
});

async function serve(): Promise<{ server: HttpMcpServer; logs: string[] }> {
  const frontend = createMcpFrontend({
    source: { tools: () => [], status: () => [], onToolsChanged: () => () => {} },
    ...testServeShared({ tools: [note], toolSearch: false, sessions: memory, log: () => {} }),
  });
  const logs: string[] = [];
  const server = await serveMcpHttp(frontend, {
    port: 0,
    host: "127.0.0.1",
    keys: KEYS,
    log: (line) => logs.push(line),
  });
  open.push(server, frontend);
  return { server, logs };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-03-26",
    capabilities: {},
    clientInfo: { name: "probe", version: "1.0.0" },
  },
};

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("mcp serve --http: keys", () => {
  it.each([
    ["no token", {}, 401],
    ["a wrong token", { authorization: "Bearer tsk-nope" }, 401],
    ["a key without runs", { authorization: `Bearer ${tokenOf("reader")}` }, 403],
    ["a key whose agents leave out mcp", { authorization: `Bearer ${tokenOf("main-only")}` }, 403],
    ["a key with runs", { authorization: `Bearer ${tokenOf("alice")}` }, 200],
    ["an admin key", { "x-api-key": tokenOf("ops") }, 200],
  ] as const)("initialize with %s → %i", async (_name, headers, status) => {
    const { server, logs } = await serve();
    const response = await post(server.url, INITIALIZE, headers);
    expect(response.status).toBe(status);
    if (status !== 200) {
      const body = (await response.json()) as { jsonrpc: string; error: { message: string } };
      expect(body.jsonrpc).toBe("2.0");
      if (status === 403)
        expect(body.error.message).toMatch(/lacks the scope "runs"|may not use agent "mcp"/u);
      expect(server.sessions()).toBe(0);
    } else {
      await response.body?.cancel();
    }
    for (const key of KEYS) expect(logs.join("\n")).not.toContain(key.token);
  });

  it("an MCP session belongs to the key that initialized it: another key gets 404, as for an unknown id", async () => {
    const { server } = await serve();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${tokenOf("alice")}` } },
    });
    const client = new Client({ name: "alice", version: "1.0.0" });
    await client.connect(transport);
    open.push(client);
    const sessionId = transport.sessionId ?? "";
    expect(sessionId).not.toBe("");
    const listed = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const session = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-03-26" };
    for (const other of ["bob", "ops"]) {
      const foreign = await post(server.url, listed, {
        ...session,
        authorization: `Bearer ${tokenOf(other)}`,
      });
      expect({ other, status: foreign.status }).toEqual({ other, status: 404 });
      expect(((await foreign.json()) as { error: { message: string } }).error.message).toContain(
        "Session not found",
      );
    }
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("notes_add");
    // The session log's header records the key that opened the MCP session.
    await client.callTool({ name: "notes_add", arguments: { text: "hi" } });
    expect(written.find((event) => event.type === "session")).toMatchObject({
      agentId: "mcp",
      keyId: "alice",
    });
  });
});
