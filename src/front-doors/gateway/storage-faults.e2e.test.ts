import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { CLI_ENTRY, type GatewayProcess } from "../../dev/qa/start-gateway-process.js";
import { markerToolsEntry, writePlugin } from "../../runtime/plugins/plugins.test-support.js";
import { mountTinyTmpfs, type TinyTmpfs } from "../../runtime/sessions/tiny-tmpfs.test-support.js";
import { startGatewayOnConfig } from "./gateway.test-support.js";

// A real `toolsift gateway` (the built CLI: run `npm run build` first) on a state directory that really
// fails: a path under a regular file (ENOTDIR) and a full 64 KiB tmpfs (ENOSPC). The plugin's tools have a
// side effect (a marker file), which proves whether a tool ran.

type Body = {
  ok?: boolean;
  reason?: string;
  output_text?: string;
  error?: { code?: string; message?: string };
};

let root: string;
let mock: MockOpenAI;
let gateway: GatewayProcess | undefined;
let marker: string;

/** Writes the plugin: `touch_marker` appends a line to the marker file; `fill_disk` also fills `fillPath`. */
async function writeMarkerPlugin(dir: string, fillPath: string): Promise<void> {
  await writePlugin(dir, {
    manifest: {
      id: "marker-plugin",
      name: "Marker",
      version: "1.0.0",
      main: "index.js",
      tools: ["touch_marker", "fill_disk"],
    },
    esm: false,
    files: { "index.js": markerToolsEntry(marker, fillPath) },
  });
}

async function startOn(stateDir: string, fillPath = join(root, "unused")): Promise<GatewayProcess> {
  const pluginDir = join(root, "plugin");
  await writeMarkerPlugin(pluginDir, fillPath);
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    plugins: { load: { paths: [pluginDir] } },
    tools: { toolSearch: false },
  };
  gateway = await startGatewayOnConfig(root, stateDir, config);
  return gateway;
}

async function healthz(url: string): Promise<{ status: number; retryAfter: string | null; body: Body }> {
  const response = await fetch(`${url}/healthz`);
  const retryAfter = response.headers.get("retry-after");
  return { status: response.status, retryAfter, body: (await response.json()) as Body };
}

/** Polls /healthz until it answers `status` (the probe result is cached for a moment). */
async function healthzBecomes(url: string, status: number): Promise<Body> {
  for (;;) {
    const answer = await healthz(url);
    if (answer.status === status) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runTool(
  url: string,
  session: string,
  tool = "touch_marker",
): Promise<{ status: number; retryAfter: string | null; body: Body }> {
  const response = await fetch(`${url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolsift-session": session },
    body: JSON.stringify({ model: "mock-tool-planner", input: `please target=${tool}` }),
  });
  const retryAfter = response.headers.get("retry-after");
  return { status: response.status, retryAfter, body: (await response.json()) as Body };
}

async function markerLines(): Promise<number> {
  return existsSync(marker) ? (await readFile(marker, "utf8")).split("\n").filter(Boolean).length : 0;
}

async function sessionFiles(stateDir: string): Promise<Array<{ name: string; bytes: number }>> {
  const dir = join(stateDir, "agents", "main", "sessions");
  const names = await readdir(dir).catch(() => []);
  return Promise.all(names.map(async (name) => ({ name, bytes: (await readFile(join(dir, name))).length })));
}

function storageLines(log: string): string[] {
  return log.split("\n").filter((line) => line.includes("session storage unavailable"));
}

function stackLines(log: string): string[] {
  return log.split("\n").filter((line) => /^\s+at\s/u.test(line));
}

beforeAll(async () => {
  expect(existsSync(CLI_ENTRY), "this test drives the built CLI: run `npm run build` first").toBe(true);
  mock = await startMockOpenAI({ port: 0 });
});

afterAll(async () => {
  await mock.close();
});

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-storage-faults-"));
  marker = join(root, "marker.txt");
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  await rm(root, { recursive: true, force: true });
});

describe("a state directory under a regular file (ENOTDIR)", () => {
  it("reports 503 on /healthz, refuses runs before any tool runs, and recovers", async () => {
    const blocker = join(root, "blocker");
    await writeFile(blocker, "a regular file where a directory should be");
    const stateDir = join(blocker, "state");
    const { url } = await startOn(stateDir);

    const health = await healthz(url);
    expect(health.status).toBe(503);
    expect(health.retryAfter).toBe("10");
    expect(health.body.ok).toBe(false);
    expect(health.body.reason).toContain(stateDir);
    expect(health.body.reason).toContain("ENOTDIR");

    const requestsBefore = mock.requests().length;
    for (const session of ["a", "b", "c"]) {
      const refused = await runTool(url, session);
      expect(refused.status).toBe(503);
      expect(refused.body.error?.code).toBe("storage_unavailable");
      expect(refused.retryAfter).toBe("10");
      expect(refused.body.error?.message).toContain(`state directory ${stateDir}`);
      expect(refused.body.error?.message).toContain("TOOLSIFT_STATE_DIR");
    }
    expect(await markerLines()).toBe(0);
    expect(mock.requests().length).toBe(requestsBefore);

    await rm(blocker);
    // No request reached the provider yet: its status is unknown, and liveness does not depend on it.
    expect(await healthzBecomes(url, 200)).toEqual({ ok: true, providers: { mock: "unknown" } });
    const answered = await runTool(url, "after");
    expect(answered.status).toBe(200);
    expect(answered.body.output_text).toContain("marked");
    expect(await markerLines()).toBe(1);

    const log = gateway?.stderr() ?? "";
    expect(storageLines(log)).toHaveLength(1);
    expect(stackLines(log)).toEqual([]);
  });
});

describe("a full disk (64 KiB tmpfs)", () => {
  let disk: TinyTmpfs | undefined;
  let skipped: string | undefined;

  beforeAll(async () => {
    const mounted = await mountTinyTmpfs(await mkdtemp(join(tmpdir(), "toolsift-full-disk-")));
    if ("skipped" in mounted) {
      skipped = mounted.skipped;
      console.warn(`skipping the full-disk gateway tests: ${skipped}`);
    } else disk = mounted;
  });

  afterEach(async () => {
    await disk?.free();
    await rm(join(disk?.dir ?? root, "state"), { recursive: true, force: true });
  });

  afterAll(() => disk?.unmount());

  it("refuses runs with 503 and no empty log while full, and takes runs again once space returns", async (context) => {
    if (!disk) return context.skip(skipped);
    const stateDir = join(disk.dir, "state");
    const { url } = await startOn(stateDir);
    expect((await runTool(url, "first")).status).toBe(200);
    expect(await markerLines()).toBe(1);

    await disk.fill();
    const health = await healthzBecomes(url, 503);
    expect(health.reason).toContain(stateDir);
    expect(health.reason).toContain("ENOSPC");
    for (const session of ["full-1", "full-2"]) {
      const refused = await runTool(url, session);
      expect(refused.status).toBe(503);
      expect(refused.body.error?.code).toBe("storage_unavailable");
      expect(refused.body.error?.message).toContain("no space left on device");
    }
    expect(await markerLines()).toBe(1);
    const files = await sessionFiles(stateDir);
    expect(files.map((file) => file.name)).toEqual(["first.jsonl"]);
    expect(files.every((file) => file.bytes > 0)).toBe(true);

    await disk.free();
    expect(await healthzBecomes(url, 200)).toEqual({ ok: true, providers: { mock: "reachable" } });
    expect((await runTool(url, "full-1")).status).toBe(200);
    expect(await markerLines()).toBe(2);

    const log = gateway?.stderr() ?? "";
    expect(storageLines(log)).toHaveLength(1);
    expect(stackLines(log)).toEqual([]);
  });

  it("still answers a run whose tool already ran when its later log lines cannot be written", async (context) => {
    if (!disk) return context.skip(skipped);
    const stateDir = join(disk.dir, "state");
    const { url } = await startOn(stateDir, join(disk.dir, ".filler"));
    const answered = await runTool(url, "fills", "fill_disk");
    expect(answered.status).toBe(200);
    expect(answered.body.output_text).toContain("filled");
    expect(await markerLines()).toBe(1);
    expect((await runTool(url, "next")).status).toBe(503);

    const log = gateway?.stderr() ?? "";
    expect(storageLines(log)).toHaveLength(1);
    expect(stackLines(log)).toEqual([]);
  });
});
