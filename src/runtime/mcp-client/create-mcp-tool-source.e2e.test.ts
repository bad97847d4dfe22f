import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs fixture module without types
import { generatedTools, hostileTools } from "../../../test/fixtures/mcp/fixture-tools.mjs";
import { createMcpToolSource } from "./create-mcp-tool-source.js";
import {
  type HttpFixture,
  logCollector,
  scriptFixture,
  startHttpFixture,
  stdioFixture,
  tempDir,
  waitFor,
} from "./mcp.test-support.js";
import type { McpToolDefinition, McpToolSource } from "./types.js";

const sources: McpToolSource[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

function track(source: McpToolSource): McpToolSource {
  sources.push(source);
  return source;
}

function tool(source: McpToolSource, name: string, server?: string): McpToolDefinition {
  const found = source
    .tools()
    .find((candidate) => candidate.name === name && (!server || candidate.mcp.server === server));
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe("createMcpToolSource over stdio", () => {
  it("follows a paginated tools/list to the end and passes every schema through untouched", async () => {
    const logs = logCollector();
    const source = track(
      createMcpToolSource({ "paged.server": stdioFixture({ prefix: "paged", pageSize: 50 }) }, logs),
    );
    await source.start();
    expect(source.status()).toEqual([{ name: "paged_server", status: "ready", tools: 154 }]);
    const tools = source.tools();
    const expected = generatedTools("paged", 150) as Array<{
      name: string;
      description: string;
      inputSchema: unknown;
    }>;
    for (const want of expected) {
      const got = tools.find((candidate) => candidate.name === want.name);
      expect(got?.description).toBe(want.description);
      expect(got?.parameters).toEqual(want.inputSchema);
    }
    const first = tools[0] as McpToolDefinition;
    expect(first.origin).toEqual({ kind: "mcp", owner: "paged_server" });
    expect(first.directName).toBe(`paged_server__${first.name}`);
    expect(first.mcp).toEqual({ server: "paged_server", tool: first.name });
  });

  it("maps call results: text with structured details, images, notes for resources and audio, isError", async () => {
    const source = track(createMcpToolSource({ maps: stdioFixture({ prefix: "maps", count: 3 }) }));
    await source.start();
    const echo = await tool(source, "maps_create_contact").execute({ id: "c-1" }, {});
    expect(echo).toEqual({
      content: [{ type: "text", text: 'maps_create_contact ok {"id":"c-1"}' }],
      details: { tool: "maps_create_contact", args: { id: "c-1" } },
    });
    expect(await tool(source, "render_chart").execute({}, {})).toEqual({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    });
    expect((await tool(source, "fetch_document").execute({}, {})).content).toEqual([
      { type: "text", text: "[resource file:///doc.txt]\nDOC_TEXT" },
      { type: "text", text: "[audio content (audio/wav) is not shown]" },
    ]);
    expect(await tool(source, "always_fails").execute({}, {})).toEqual({
      content: [{ type: "text", text: "FAILED_ON_PURPOSE" }],
      isError: true,
    });
    await expect(tool(source, "maps_create_contact").execute("not an object", {})).rejects.toThrow(
      'Arguments for "maps_create_contact" must be a JSON object.',
    );
  });

  it("reports servers that never start, and the rest work", async () => {
    const logs = logCollector();
    const source = track(
      createMcpToolSource(
        {
          missing: { command: "toolsift-no-such-command-4711" },
          exits: { command: process.execPath, args: ["-e", "process.exit(3)"] },
          good: stdioFixture({ prefix: "good", count: 5 }),
        },
        logs,
      ),
    );
    await source.start();
    const status = source.status();
    expect(status.map((server) => [server.name, server.status, server.tools])).toEqual([
      ["missing", "failed", 0],
      ["exits", "failed", 0],
      ["good", "ready", 9],
    ]);
    expect(status[0]?.error).toContain('the command "toolsift-no-such-command-4711" was not found');
    expect(status[1]?.error).toContain("closed the connection before it was ready");
    expect(source.tools().every((candidate) => candidate.mcp.server === "good")).toBe(true);
    expect(logs.lines.some((line) => line.startsWith("mcp missing: "))).toBe(true);
    const answer = await tool(source, "good_get_contact").execute({ id: "x" }, {});
    expect(answer.content[0]).toEqual({ type: "text", text: 'good_get_contact ok {"id":"x"}' });
  });

  it("gives up on a server that does not answer initialize within the start timeout", async () => {
    const source = track(
      createMcpToolSource(
        { silent: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] } },
        { startTimeoutMs: 300 },
      ),
    );
    await source.start();
    expect(source.status()[0]).toMatchObject({ name: "silent", status: "failed", tools: 0 });
    expect(source.status()[0]?.error).toContain("did not start and list its tools within 300 ms");
  });

  it("a server's own startTimeoutMs bounds its start, whatever the source's default", async () => {
    const source = track(
      createMcpToolSource({
        silent: {
          command: process.execPath,
          args: ["-e", "setInterval(() => {}, 1000)"],
          startTimeoutMs: 250,
        },
      }),
    );
    await source.start();
    expect(source.status()[0]).toMatchObject({ name: "silent", status: "failed", tools: 0 });
    expect(source.status()[0]?.error).toContain("did not start and list its tools within 250 ms");
  });

  it("a command with its arguments in it says to put them in args, with the values to use", async () => {
    const source = track(
      createMcpToolSource({
        joined: { command: "toolsift-no-such-npx -y some-mcp-server /data", args: ["--verbose"] },
      }),
    );
    await source.start();
    expect(source.status()[0]?.error).toBe(
      'MCP server "joined" could not start: no program is named "toolsift-no-such-npx -y some-mcp-server /data". command holds the program alone and args its arguments: set mcp.servers.joined.command to "toolsift-no-such-npx" and .args to ["-y","some-mcp-server","/data","--verbose"].',
    );
  });

  it("fails a call clearly when the server exits mid-call, restarts it, and a later call works", async () => {
    const logs = logCollector();
    const source = track(createMcpToolSource({ crashy: scriptFixture("crash-server.mjs") }, logs));
    await source.start();
    const firstPid = await waitFor(() => pidFrom(logs.lines, 0), "the first pid");
    await expect(tool(source, "crash_now").execute({}, {})).rejects.toThrow(
      'MCP server "crashy" closed during the call to "crash_now".',
    );
    expect(source.status()[0]?.status).toBe("starting");
    await expect(tool(source, "still_alive").execute({}, {})).rejects.toThrow(
      'MCP server "crashy" is not available for the call to "still_alive"',
    );
    await waitFor(() => source.status()[0]?.status === "ready", "the restart");
    const answer = await tool(source, "still_alive").execute({}, {});
    const secondPid = pidFrom(logs.lines, 1);
    expect(answer.content[0]).toEqual({ type: "text", text: `ALIVE pid=${secondPid}` });
    expect(secondPid).not.toBe(firstPid);
    expect(logs.lines).toContain("mcp crashy: restarted, 2 tools");
  });

  it("times out a hanging call and sends the cancellation to the server", async () => {
    const dir = await tempDir();
    try {
      const marker = join(dir.path, "cancelled.txt");
      const source = track(
        createMcpToolSource(
          { slow: scriptFixture("hang-server.mjs", { HANG_MARKER_FILE: marker }) },
          { callTimeoutMs: 300 },
        ),
      );
      await source.start();
      await expect(tool(source, "hang").execute({}, {})).rejects.toThrow(
        'MCP server "slow" did not answer the call to "hang" within 300 ms; the call was cancelled.',
      );
      const text = await waitFor(
        () => readFile(marker, "utf8").catch(() => undefined),
        "the cancellation marker",
      );
      expect(text).toMatch(/^cancelled .*Request timed out/mu);
      // The server is still usable after the cancelled call.
      expect((await tool(source, "quick").execute({}, {})).content[0]).toEqual({
        type: "text",
        text: "QUICK_OK",
      });
    } finally {
      await dir.cleanup();
    }
  });

  it("honours the caller's abort: the call rejects with the abort reason and the server is told", async () => {
    const dir = await tempDir();
    try {
      const marker = join(dir.path, "cancelled.txt");
      const source = track(
        createMcpToolSource({ slow: scriptFixture("hang-server.mjs", { HANG_MARKER_FILE: marker }) }),
      );
      await source.start();
      const controller = new AbortController();
      const call = tool(source, "hang").execute({}, { signal: controller.signal });
      controller.abort(new Error("caller gave up"));
      await expect(call).rejects.toThrow("caller gave up");
      const text = await waitFor(
        () => readFile(marker, "utf8").catch(() => undefined),
        "the cancellation marker",
      );
      expect(text).toContain("cancelled Error: caller gave up");
    } finally {
      await dir.cleanup();
    }
  });

  it("survives hostile metadata: huge, injection and deep tools pass through, unusable names are left out", async () => {
    const logs = logCollector();
    const source = track(
      createMcpToolSource({ evil: stdioFixture({ prefix: "evil", count: 2, hostile: true }) }, logs),
    );
    await source.start();
    const hostile = hostileTools() as Array<{ name: string; description: string; inputSchema: unknown }>;
    for (const want of hostile.slice(0, 4)) {
      const got = tool(source, want.name);
      expect(got.description).toBe(want.description);
      expect(got.parameters).toEqual(want.inputSchema);
    }
    expect(source.tools().map((candidate) => candidate.name)).not.toContain("bad\nname");
    expect(source.tools().some((candidate) => candidate.name.length > 256)).toBe(false);
    expect(source.status()[0]).toEqual({ name: "evil", status: "ready", tools: 10 });
    expect(logs.lines).toContain(
      "mcp evil: left out 2 tool(s) without a usable name (a string of 1 to 256 characters, no control characters)",
    );
  });

  it("stops every server process on close", async () => {
    const logs = logCollector();
    const source = createMcpToolSource({ crashy: scriptFixture("crash-server.mjs") }, logs);
    await source.start();
    const pid = await waitFor(() => pidFrom(logs.lines, 0), "the pid");
    await source.close();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(source.status()[0]?.status).toBe("failed");
    await expect(tool(source, "still_alive").execute({}, {})).rejects.toThrow("(closed)");
  });
});

describe("createMcpToolSource over Streamable HTTP", () => {
  let fixture: HttpFixture;
  beforeAll(async () => {
    fixture = await startHttpFixture({ prefix: "web" });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it("lists and calls tools, and sees a list change (list_changed) in the next tools()", async () => {
    const source = track(createMcpToolSource({ web: { url: fixture.url } }));
    await source.start();
    expect(source.status()).toEqual([{ name: "web", status: "ready", tools: 151 }]);
    const answer = await tool(source, "web_export_report").execute({ id: "r-9" }, {});
    expect(answer.content[0]).toEqual({ type: "text", text: 'web_export_report ok {"id":"r-9"}' });

    let changes = 0;
    source.onToolsChanged(() => {
      changes += 1;
    });
    await tool(source, "add_tool").execute({ name: "web_brand_new_tool" }, {});
    await waitFor(() => changes > 0, "the list change");
    expect(source.tools().map((candidate) => candidate.name)).toContain("web_brand_new_tool");
    expect(source.status()[0]?.tools).toBe(152);
  });

  it("sends the configured headers on every request", async () => {
    const guarded = await startHttpFixture({
      prefix: "guarded",
      count: 2,
      requireHeader: "x-api-key:s3cret",
    });
    try {
      const source = track(
        createMcpToolSource({
          with: { url: guarded.url, headers: { "x-api-key": "s3cret" } },
          without: { url: guarded.url },
        }),
      );
      await source.start();
      expect(source.status().map((server) => [server.name, server.status, server.tools])).toEqual([
        ["with", "ready", 3],
        ["without", "failed", 0],
      ]);
      const answer = await tool(source, "guarded_list_contact").execute({ id: "1" }, {});
      expect(answer.content[0]).toEqual({ type: "text", text: 'guarded_list_contact ok {"id":"1"}' });
    } finally {
      await guarded.close();
    }
  });

  it("reports an unreachable URL as failed", async () => {
    const source = track(
      createMcpToolSource({ gone: { url: "http://127.0.0.1:9/mcp" } }, { startTimeoutMs: 3_000 }),
    );
    await source.start();
    expect(source.status()[0]).toMatchObject({ name: "gone", status: "failed", tools: 0 });
    expect(source.status()[0]?.error).toContain('MCP server "gone" could not start');
  });
});

function pidFrom(lines: readonly string[], index: number): number | undefined {
  const pids = lines.flatMap((line) => /crash-server: started pid=(\d+)/u.exec(line)?.[1] ?? []);
  const pid = pids[index];
  return pid === undefined ? undefined : Number(pid);
}
