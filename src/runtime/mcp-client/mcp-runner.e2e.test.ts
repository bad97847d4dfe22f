import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { type AssembledRuntime, assembleRuntime } from "../../front-doors/cli/assemble-runtime.js";
import type { SessionEvent } from "../sessions/index.js";
import {
  type HttpFixture,
  logCollector,
  scriptFixture,
  startHttpFixture,
  stdioFixture,
  tempDir,
  waitFor,
} from "./mcp.test-support.js";

let mock: MockOpenAI;
let web: HttpFixture;
let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: AssembledRuntime;
const logs = logCollector();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  mock = await startMockOpenAI({ port: 0 });
  web = await startHttpFixture({ prefix: "web" });
  dir = await tempDir();
  const config = {
    models: {
      providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "test", maxRetries: 0 } },
    },
    agents: { defaults: { model: "mock/toolsift-mock" } },
    mcp: {
      servers: {
        files: stdioFixture({ prefix: "files", count: 150 }),
        web: { url: web.url },
        crashy: scriptFixture("crash-server.mjs"),
        broken: { command: "toolsift-no-such-command-4711" },
      },
    },
  };
  await writeFile(join(dir.path, "toolsift.json"), JSON.stringify(config));
  runtime = await assembleRuntime({
    configPath: join(dir.path, "toolsift.json"),
    env: { TOOLSIFT_STATE_DIR: join(dir.path, "state") },
    log: logs.log,
  });
});

afterAll(async () => {
  await runtime?.close();
  await web?.close();
  await mock?.close();
  await dir?.cleanup();
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

function say(sessionKey: string, text: string) {
  return runtime.runner.run({
    agentId: "main",
    sessionKey,
    input: [{ type: "message", role: "user", text }],
  });
}

describe("MCP tools in real runs (assembleRuntime, mock provider over HTTP)", () => {
  it("starts no server until a run needs the tools", () => {
    expect(runtime.environment.mcp.status().every((server) => server.status === "starting")).toBe(true);
    expect(runtime.environment.mcp.tools()).toEqual([]);
  });

  it("finds an upstream tool with tool_search and calls it through tool_call; the log names the MCP target", async () => {
    const result = await say("find-and-call", "please run target=web_get_invoice");
    expect(result.status).toBe("completed");
    expect(result.text).toContain('web_get_invoice ok {"id":"qa"}');
    const events = await runtime.environment.sessions.read("main", "find-and-call");
    const request = events.find((event) => event.type === "model-request") as Extract<
      SessionEvent,
      { type: "model-request" }
    >;
    expect(request.declaredTools.slice(0, 3)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect(request.declaredTools.some((name) => name.startsWith("web_") || name.startsWith("files_"))).toBe(
      false,
    );
    const target = events.find((event) => event.type === "target-activity");
    expect(target).toMatchObject({
      toolId: "mcp:web:web_get_invoice",
      source: "mcp",
      name: "web_get_invoice",
    });
  });

  it("reports every server on the effective surface; a server that never started is left out", async () => {
    const surface = await runtime.runner.effectiveSurface("main");
    expect(surface.servers?.map((server) => [server.name, server.status, server.tools])).toEqual([
      ["files", "ready", 154],
      ["web", "ready", 151],
      ["crashy", "ready", 2],
      ["broken", "failed", 0],
    ]);
    expect(surface.servers?.[3]?.error).toContain(
      'the command "toolsift-no-such-command-4711" was not found',
    );
    expect(surface.declaredTools.slice(0, 3)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    const mcpNames = new Set(surface.tools.filter((tool) => tool.source === "mcp").map((tool) => tool.name));
    expect(surface.declaredTools.filter((name) => mcpNames.has(name))).toEqual([]);
    expect(surface.tools.filter((tool) => tool.source === "mcp")).toHaveLength(154 + 151 + 2);
    expect(surface.tools.find((tool) => tool.id === "mcp:files:files_sync_order")).toMatchObject({
      owner: "files",
      visibility: "catalog",
    });
  });

  it("sees an upstream list change in the next run", async () => {
    let changed = false;
    const stop = runtime.environment.mcp.onToolsChanged(() => {
      changed = true;
    });
    // The mock fills the required `name` with "qa": the upstream server adds a tool named `qa`.
    const added = await say("list-change", "target=add_tool");
    expect(added.text).toContain("ADDED qa");
    await waitFor(() => changed, "the upstream list change");
    stop();
    const next = await say("list-change", "now target=qa");
    expect(next.status).toBe("completed");
    expect(next.text).toContain("qa ok {}");
  });

  it("fails a call clearly when its server crashes, and a later run works after the restart", async () => {
    const crashed = await say("crash", "target=crash_now");
    expect(crashed.status).toBe("completed");
    expect(crashed.text).toContain('MCP server "crashy" closed during the call to "crash_now".');
    await waitFor(
      () => runtime.environment.mcp.status().find((server) => server.name === "crashy")?.status === "ready",
      "the crashed server to restart",
    );
    const later = await say("crash", "target=still_alive");
    expect(later.text).toMatch(/ALIVE pid=\d+/u);
    expect(logs.lines).toContain("mcp crashy: restarted, 2 tools");
  });
});
