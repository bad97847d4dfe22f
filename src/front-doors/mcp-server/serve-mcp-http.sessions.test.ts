import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { createMcpFrontend } from "./create-mcp-frontend.js";
import { testServeShared } from "./mcp-frontend.test-support.js";
import { type HttpMcpServer, serveMcpHttp } from "./serve-mcp-http.js";
import { EMPTY_SOURCE, memorySessions } from "./serve-mcp-http.test-support.js";

// `mcp serve --http` in process on 127.0.0.1 (a real HTTP server), driven by the official SDK client over
// Streamable HTTP. No client here ever sends DELETE: they leave the way a crashed or careless client does.

/** A tool whose calls wait until the test opens the gate; `started` counts calls that began. */
function gateTool() {
  let open: () => void = () => {};
  let opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { started: 0 };
  const tool: ToolDefinition = {
    name: "wait_gate",
    description: "Waits for the gate.",
    parameters: { type: "object", properties: {} },
    origin: { kind: "plugin", owner: "gate" },
    execute: async () => {
      state.started += 1;
      await opened;
      return { content: [{ type: "text", text: "through" }] };
    },
  };
  return {
    tool,
    state,
    open() {
      open();
      opened = Promise.resolve();
    },
  };
}

const quick: ToolDefinition = {
  name: "ping",
  description: "Answers pong.",
  parameters: { type: "object", properties: {} },
  origin: { kind: "plugin", owner: "gate" },
  execute: async () => ({ content: [{ type: "text", text: "pong" }] }),
};

let server: HttpMcpServer | undefined;
const clients: Client[] = [];
const logLines: string[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await server?.close();
  server = undefined;
  logLines.length = 0;
});

async function start(
  maxSessions: number,
  tools: ToolDefinition[],
  sessionIdleMs?: number,
): Promise<HttpMcpServer> {
  const frontend = createMcpFrontend({
    source: EMPTY_SOURCE,
    ...testServeShared({
      tools,
      toolSearch: false,
      sessions: memorySessions(),
      log: (line) => logLines.push(line),
    }),
  });
  server = await serveMcpHttp(frontend, {
    port: 0,
    host: "127.0.0.1",
    maxSessions,
    ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
    log: (line) => logLines.push(line),
  });
  const close = server.close.bind(server);
  server.close = async () => {
    await close();
    await frontend.close();
  };
  return server;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "session-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? [])
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("");
}

/** A raw `initialize`, to see the status and headers a refused newcomer gets. */
async function rawInitialize(url: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

describe("mcp serve --http at its session cap", () => {
  it("admits cap+1 clients by evicting the least recently used idle session; the evicted one gets 404 and can start again", async () => {
    const { url, sessions } = await start(3, [quick]);
    const first = await connect(url);
    const second = await connect(url);
    const third = await connect(url);
    // `first` is used again, so `second` is now the least recently used.
    expect(textOf(await first.callTool({ name: "ping", arguments: {} }))).toBe("pong");

    const fourth = await connect(url);
    expect(sessions()).toBe(3);
    expect(textOf(await fourth.callTool({ name: "ping", arguments: {} }))).toBe("pong");
    await expect(second.listTools()).rejects.toMatchObject({
      code: 404,
      message: expect.stringContaining("Session not found"),
    });
    // The rest kept their sessions.
    expect((await first.listTools()).tools.map((tool) => tool.name)).toEqual(["ping"]);
    expect((await third.listTools()).tools.map((tool) => tool.name)).toEqual(["ping"]);
    expect(logLines.filter((line) => line.includes("session limit (3) reached"))).toHaveLength(1);

    // The evicted client starts a new session; the least recently used one (`fourth`) makes room.
    const again = await connect(url);
    expect(textOf(await again.callTool({ name: "ping", arguments: {} }))).toBe("pong");
    await expect(fourth.listTools()).rejects.toMatchObject({ code: 404 });
    expect(sessions()).toBe(3);
  });

  it("never evicts a session whose call is running: it evicts an idle one, and answers 503 with Retry-After when all are busy", async () => {
    const gate = gateTool();
    const { url, sessions } = await start(2, [gate.tool, quick]);
    const busy = await connect(url);
    const idle = await connect(url);
    const running = busy.callTool({ name: "wait_gate", arguments: {} });
    await expect.poll(() => gate.state.started).toBe(1);
    // `idle` is used after `busy` started, so `busy` is the least recently used, but it is busy.
    expect(textOf(await idle.callTool({ name: "ping", arguments: {} }))).toBe("pong");

    const newcomer = await connect(url);
    await expect(idle.listTools()).rejects.toMatchObject({ code: 404 });
    const alsoRunning = newcomer.callTool({ name: "wait_gate", arguments: {} });
    await expect.poll(() => gate.state.started).toBe(2);

    // Every session has a call running: a new client is refused, and nothing is evicted.
    const refused = await rawInitialize(url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    const body = (await refused.json()) as { error?: { code?: number; message?: string } };
    expect(body.error?.code).toBe(-32000);
    expect(body.error?.message).toContain("mcp.serve.maxSessions");
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(sessions()).toBe(2);

    gate.open();
    expect(textOf(await running)).toBe("through");
    expect(textOf(await alsoRunning)).toBe("through");
    // Idle again: the next newcomer is admitted, in place of the least recently used (`busy`).
    const late = await connect(url);
    expect(textOf(await late.callTool({ name: "ping", arguments: {} }))).toBe("pong");
    expect(textOf(await newcomer.callTool({ name: "ping", arguments: {} }))).toBe("pong");
    await expect(busy.listTools()).rejects.toMatchObject({ code: 404 });
  });

  it("closes a session idle for sessionIdleMs (its listening stream does not keep it), and the client can start again", async () => {
    const { url, sessions } = await start(4, [quick], 1_000);
    const client = await connect(url);
    expect(sessions()).toBe(1);
    await expect.poll(() => sessions(), { timeout: 10_000, interval: 100 }).toBe(0);
    await expect(client.listTools()).rejects.toMatchObject({ code: 404 });
    const again = await connect(url);
    expect(textOf(await again.callTool({ name: "ping", arguments: {} }))).toBe("pong");
  });
});
