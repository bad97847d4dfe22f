import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUILT_CLI,
  type HttpFixture,
  readLine,
  startHttpFixture,
  stdioFixture,
  stopChild,
  tempDir,
  waitFor,
  writeEchoPlugin,
} from "../../runtime/mcp-client/mcp.test-support.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";

const TOKEN = "test-token-0123456789abcdef";

type Setup = { dir: Awaited<ReturnType<typeof tempDir>>; web: HttpFixture; config: string; stateDir: string };

async function setUp(extra: Record<string, unknown> = {}): Promise<Setup> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
  const dir = await tempDir();
  const web = await startHttpFixture({ prefix: "web", count: 150 });
  const plugins = join(dir.path, "plugins");
  await writeEchoPlugin(plugins, "notes", ["notes_add", "notes_find", "notes_delete"]);
  const config = join(dir.path, "toolsift.json");
  await writeFile(
    config,
    JSON.stringify({
      plugins: { load: { paths: [plugins] } },
      mcp: { servers: { files: stdioFixture({ prefix: "files", count: 150 }), web: { url: web.url } } },
      ...extra,
    }),
  );
  return { dir, web, config, stateDir: join(dir.path, "state") };
}

async function tearDown(setup: Setup | undefined): Promise<void> {
  await setup?.web.close();
  await setup?.dir.cleanup();
}

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? [])
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("\n");
}

async function searchDescribeCall(client: Client, query: string, args: Record<string, unknown>) {
  const found = JSON.parse(
    textOf(await client.callTool({ name: "tool_search", arguments: { query, limit: 1 } })),
  );
  const id = found[0]?.id as string;
  const described = JSON.parse(textOf(await client.callTool({ name: "tool_describe", arguments: { id } })));
  const called = await client.callTool({ name: "tool_call", arguments: { id, args } });
  return { id, described, called };
}

async function sessionEvents(stateDir: string): Promise<SessionEvent[][]> {
  const folder = join(stateDir, "agents", "mcp", "sessions");
  const files = (await readdir(folder)).filter((name) => name.endsWith(".jsonl"));
  return Promise.all(
    files.map(async (name) =>
      (await readFile(join(folder, name), "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as SessionEvent),
    ),
  );
}

describe("toolsift mcp serve over stdio (the built CLI, driven by the SDK client)", () => {
  let setup: Setup | undefined;
  let client: Client;
  let stderr = "";
  let listChanged = 0;
  beforeAll(async () => {
    setup = await setUp();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, "mcp", "serve", "--config", setup.config],
      env: { ...getDefaultEnvironment(), TOOLSIFT_STATE_DIR: setup.stateDir },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: "test-client", version: "1.0.0" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await tearDown(setup);
  });

  it("lists exactly the three controls, and the instructions carry the directory", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("Upstream MCP servers: files, web.");
    expect(instructions).toContain("### Deferred Tool Schemas");
    expect(instructions).toContain("- notes_add (notes): Echo the text back (notes_add).");
    expect(instructions).not.toContain("files_");
    expect(stderr).toContain(
      "toolsift mcp serve: 2 of 2 upstream MCP servers ready (305 tools), 3 plugin tools",
    );
  });

  it("searches, describes and calls an upstream tool, and calls a plugin tool through tool_call", async () => {
    const { id, described, called } = await searchDescribeCall(client, "sync an order in the files system", {
      id: "o-1",
    });
    expect(id).toBe("mcp:files:files_sync_order");
    expect(described.parameters.required).toEqual(["id"]);
    expect(called.isError).toBeFalsy();
    expect(textOf(called)).toContain('files_sync_order ok {\\"id\\":\\"o-1\\"}');
    const plugin = await client.callTool({
      name: "tool_call",
      arguments: { id: "notes_find", args: { text: "hi" } },
    });
    expect(textOf(plugin)).toContain("ECHO notes_find hi");
    const bad = await client.callTool({
      name: "tool_call",
      arguments: { id: "notes_find", args: { txt: "hi" } },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("Did you mean: text?");
  });

  it("logs each call and its MCP target in the session log under the state directory", async () => {
    const sessions = await waitFor(async () => {
      const all = await sessionEvents(setup?.stateDir ?? "").catch(() => []);
      return all.length === 1 && all[0]?.some((event) => event.type === "target-activity") ? all : undefined;
    }, "the session log");
    const events = sessions[0] ?? [];
    expect(events[0]).toMatchObject({ type: "session", version: 1, agentId: "mcp" });
    const names = events.flatMap((event) => (event.type === "tool-result" ? [event.name] : []));
    expect(names.slice(0, 3)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect(events.find((event) => event.type === "target-activity")).toMatchObject({
      toolId: "mcp:files:files_sync_order",
      source: "mcp",
      arguments: { id: "o-1" },
      isError: false,
    });
  });

  it("sends no list_changed when only the catalog changes (an upstream tool added behind the controls)", async () => {
    await client.callTool({
      name: "tool_call",
      arguments: { id: "mcp:web:add_tool", args: { name: "web_fresh_tool" } },
    });
    await waitFor(async () => {
      const found = textOf(
        await client.callTool({ name: "tool_search", arguments: { query: "web_fresh_tool" } }),
      );
      return found.includes("mcp:web:web_fresh_tool");
    }, "the new upstream tool to be searchable");
    // One more round trip: a notification sent with the rebuild would have arrived before this answer.
    expect((await client.listTools()).tools).toHaveLength(3);
    expect(listChanged).toBe(0);
  });
});

describe("toolsift mcp serve --http (the built CLI, driven by the SDK client)", () => {
  let setup: Setup | undefined;
  let serve: ReturnType<typeof spawn> | undefined;
  let url: string;
  beforeAll(async () => {
    setup = await setUp({ gateway: { auth: { token: TOKEN } } });
    serve = spawn(process.execPath, [BUILT_CLI, "mcp", "serve", "--config", setup.config, "--http", "0"], {
      env: { ...process.env, TOOLSIFT_STATE_DIR: setup.stateDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    url = await readLine(serve, /toolsift mcp serve listening on (\S+)/u, "the serve URL", "stderr");
  });
  afterAll(async () => {
    if (serve) await stopChild(serve);
    await tearDown(setup);
  });

  async function connect(): Promise<Client> {
    const client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return client;
  }

  it("prints a loopback URL and serves the three controls with the directory in the instructions", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/u);
    const client = await connect();
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        "tool_search",
        "tool_describe",
        "tool_call",
      ]);
      expect(client.getInstructions()).toContain("- notes_find (notes): Echo the text back (notes_find).");
      const { id, called } = await searchDescribeCall(client, "web_archive_ticket", { id: "t-7" });
      expect(id).toBe("mcp:web:web_archive_ticket");
      expect(textOf(called)).toContain('web_archive_ticket ok {\\"id\\":\\"t-7\\"}');
    } finally {
      await client.close();
    }
  });

  it("refuses requests without the bearer token, and requests naming another host", async () => {
    const refused = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Missing or invalid bearer token." },
      id: null,
    });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const target = new URL(url);
      const sent = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          headers: { host: "evil.example:80" },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      sent.on("error", reject);
      sent.end("{}");
    });
    expect(status).toBe(403);
  });

  it("gives each MCP session its own session log", async () => {
    const first = await connect();
    const second = await connect();
    try {
      await first.callTool({ name: "tool_search", arguments: { query: "invoice" } });
      await second.callTool({ name: "tool_search", arguments: { query: "ticket" } });
      const sessions = await sessionEvents(setup?.stateDir ?? "");
      const keys = sessions.map((events) => (events[0] as { sessionKey?: string }).sessionKey);
      expect(new Set(keys).size).toBe(sessions.length);
      expect(sessions.length).toBeGreaterThanOrEqual(2);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("toolsift mcp serve with tools.toolSearch false (every tool listed directly)", () => {
  let setup: Setup | undefined;
  let client: Client;
  let listChanged = 0;
  beforeAll(async () => {
    setup = await setUp({ tools: { toolSearch: false } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, "mcp", "serve", "--config", setup.config],
      env: { ...getDefaultEnvironment(), TOOLSIFT_STATE_DIR: setup.stateDir },
      stderr: "ignore",
    });
    client = new Client({ name: "direct-client", version: "1.0.0" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await tearDown(setup);
  });

  it("lists plugin tools by name and MCP tools as <server>__<tool>, and calls them through the pipeline", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toHaveLength(3 + 154 + 151);
    expect(names).toEqual(expect.arrayContaining(["notes_add", "files__files_get_contact", "web__add_tool"]));
    expect(names).not.toContain("tool_search");
    const answer = await client.callTool({ name: "files__files_get_contact", arguments: { id: "c-3" } });
    expect(textOf(answer)).toContain('files_get_contact ok {"id":"c-3"}');
    expect(textOf(answer)).toContain("EXTERNAL_UNTRUSTED_CONTENT");
    expect(client.getInstructions()).toContain("every tool is listed directly");
  });

  it("sends list_changed when the listed tools change, and lists the new tool", async () => {
    await client.callTool({ name: "web__add_tool", arguments: { name: "web_direct_added" } });
    await waitFor(() => listChanged > 0, "notifications/tools/list_changed");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("web__web_direct_added");
  });
});
