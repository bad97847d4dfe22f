import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BUILT_CLI,
  readLine,
  stopChild,
  tempDir,
  waitFor,
} from "../../runtime/mcp-client/mcp.test-support.js";
import { markerToolsEntry, writePlugin } from "../../runtime/plugins/plugins.test-support.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";
import { mountTinyTmpfs, type TinyTmpfs } from "../../runtime/sessions/tiny-tmpfs.test-support.js";

// The built CLI (`npm run build` first): `mcp serve` over stdio on a state directory that really fills up
// (a 64 KiB tmpfs), and `mcp serve --http` with its session settings from the config. The plugin's tools
// append to a marker file, which proves whether a tool ran.

let root: string;
let marker: string;

/** `touch_marker` appends a line to the marker; `fill_disk` also fills `fillPath` (the state's disk). */
async function writeMarkerPlugin(dir: string, fillPath: string): Promise<void> {
  await writePlugin(dir, {
    manifest: { id: "marker", name: "Marker", version: "1.0.0", tools: ["touch_marker", "fill_disk"] },
    files: { "index.js": markerToolsEntry(marker, fillPath) },
  });
}

async function writeConfig(extra: Record<string, unknown>, fillPath = join(root, "unused")): Promise<string> {
  const plugins = join(root, "plugins");
  await writeMarkerPlugin(join(plugins, "marker"), fillPath);
  const config = join(root, "toolsift.json");
  await writeFile(
    config,
    JSON.stringify({ plugins: { load: { paths: [plugins] } }, tools: { toolSearch: false }, ...extra }),
  );
  return config;
}

async function markerLines(): Promise<number> {
  return existsSync(marker) ? (await readFile(marker, "utf8")).split("\n").filter(Boolean).length : 0;
}

async function sessionLogs(stateDir: string): Promise<SessionEvent[][]> {
  const folder = join(stateDir, "agents", "mcp", "sessions");
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith(".jsonl"));
  return Promise.all(
    names.map(async (name) =>
      (await readFile(join(folder, name), "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as SessionEvent),
    ),
  );
}

function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? [])
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("");
}

function linesWith(log: string, text: string): string[] {
  return log.split("\n").filter((line) => line.includes(text));
}

function stackLines(log: string): string[] {
  return log.split("\n").filter((line) => /^\s+at\s/u.test(line));
}

beforeAll(() => {
  expect(existsSync(BUILT_CLI), "this test drives the built CLI: run `npm run build` first").toBe(true);
});

describe("toolsift mcp serve on a full disk (64 KiB tmpfs, stdio)", () => {
  let disk: TinyTmpfs | undefined;
  let skipped: string | undefined;
  let client: Client | undefined;
  let stderr = "";

  beforeAll(async () => {
    const mounted = await mountTinyTmpfs(await mkdtemp(join(tmpdir(), "toolsift-mcp-full-disk-")));
    if ("skipped" in mounted) {
      skipped = mounted.skipped;
      console.warn(`skipping the full-disk mcp serve tests: ${skipped}`);
    } else disk = mounted;
  });

  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    stderr = "";
    await disk?.free();
    await rm(join(disk?.dir ?? tmpdir(), "state"), { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  afterAll(() => disk?.unmount());

  async function serveOn(stateDir: string, fillPath?: string): Promise<Client> {
    root = await mkdtemp(join(tmpdir(), "toolsift-mcp-storage-"));
    marker = join(root, "marker.txt");
    const config = await writeConfig({}, fillPath);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, "mcp", "serve", "--config", config],
      env: { ...getDefaultEnvironment(), TOOLSIFT_HOME: root, TOOLSIFT_STATE_DIR: stateDir },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: "storage-test", version: "1.0.0" });
    await client.connect(transport);
    return client;
  }

  it("refuses calls before the tool runs while the disk is full, logs the fault once, and recovers without a restart", async (context) => {
    if (!disk) return context.skip(skipped);
    const stateDir = join(disk.dir, "state");
    const mcp = await serveOn(stateDir);
    expect(textOf(await mcp.callTool({ name: "touch_marker", arguments: {} }))).toBe("marked");
    expect(await markerLines()).toBe(1);

    await disk.fill();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await mcp.callTool({ name: "touch_marker", arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("Refused before the tool ran: the session log cannot be written");
      expect(textOf(refused)).toContain(`the state directory ${stateDir} cannot be written`);
      expect(textOf(refused)).toContain("no space left on device (ENOSPC)");
      expect(textOf(refused)).toContain("TOOLSIFT_STATE_DIR");
    }
    expect(await markerLines()).toBe(1);

    await disk.free();
    // The failed probe is reused for a moment; every refused attempt meanwhile runs nothing.
    const answered = await waitFor(async () => {
      const result = await mcp.callTool({ name: "touch_marker", arguments: {} });
      return result.isError ? undefined : result;
    }, "a call to be accepted again");
    expect(textOf(answered)).toBe("marked");
    expect(await markerLines()).toBe(2);

    // One session file: header, then each call that ran as a run of its own with its summary.
    const [events = []] = await sessionLogs(stateDir);
    expect(events.map((event) => event.type)).toEqual([
      "session",
      "tool-result",
      "run-summary",
      "tool-result",
      "run-summary",
    ]);
    expect(events[2]).toMatchObject({ type: "run-summary", status: "completed", runId: events[1]?.runId });
    expect(events[4]).toMatchObject({ type: "run-summary", status: "completed", runId: events[3]?.runId });
    expect(events[1]?.runId).not.toBe(events[3]?.runId);

    expect(linesWith(stderr, "session storage unavailable")).toHaveLength(1);
    expect(linesWith(stderr, "session storage available again")).toHaveLength(1);
    expect(linesWith(stderr, "could not write session")).toEqual([]);
    expect(stackLines(stderr)).toEqual([]);
  });

  it("answers a call whose tool fills the disk, and refuses the next one", async (context) => {
    if (!disk) return context.skip(skipped);
    const stateDir = join(disk.dir, "state");
    const mcp = await serveOn(stateDir, join(disk.dir, ".filler"));
    const filled = await mcp.callTool({ name: "fill_disk", arguments: {} });
    expect(filled.isError).toBeFalsy();
    expect(textOf(filled)).toBe("filled");
    const next = await mcp.callTool({ name: "touch_marker", arguments: {} });
    expect(next.isError).toBe(true);
    expect(textOf(next)).toContain("no space left on device (ENOSPC)");
    expect(await markerLines()).toBe(1);
    expect(linesWith(stderr, "session storage unavailable")).toHaveLength(1);
    expect(stackLines(stderr)).toEqual([]);
  });
});

describe("toolsift mcp serve --http with mcp.serve settings", () => {
  let serve: ChildProcess | undefined;
  let stderr = "";
  const clients: Client[] = [];

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    if (serve) await stopChild(serve);
    await rm(root, { recursive: true, force: true });
  });

  it("keeps at most mcp.serve.maxSessions sessions, evicting the least recently used idle one", async () => {
    const dir = await tempDir();
    root = dir.path;
    marker = join(root, "marker.txt");
    const config = await writeConfig({ mcp: { serve: { maxSessions: 2, sessionIdleMs: 600_000 } } });
    serve = spawn(process.execPath, [BUILT_CLI, "mcp", "serve", "--config", config, "--http", "0"], {
      env: { ...process.env, TOOLSIFT_HOME: root, TOOLSIFT_STATE_DIR: join(root, "state") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    serve.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const url = await readLine(serve, /toolsift mcp serve listening on (\S+)/u, "the serve URL", "stderr");
    const connect = async () => {
      const client = new Client({ name: "cap-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      return client;
    };
    const first = await connect();
    const second = await connect();
    const third = await connect();
    expect(textOf(await third.callTool({ name: "touch_marker", arguments: {} }))).toBe("marked");
    await expect(first.listTools()).rejects.toMatchObject({ code: 404 });
    expect((await second.listTools()).tools.map((tool) => tool.name)).toEqual(["touch_marker", "fill_disk"]);
    expect(linesWith(stderr, "session limit (2) reached")).toHaveLength(1);
  });
});
