import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import {
  HANDLE_HOLDER_PLUGIN,
  isAlive,
  type ServerProcess,
  spawnServer,
  tempDir,
  writeConfig,
} from "./server-hardening.test-support.js";

describe("toolsift gateway: SIGTERM is bounded", () => {
  let dir: string;
  let mock: MockOpenAI;
  let gateway: ServerProcess | undefined;

  beforeAll(async () => {
    dir = await tempDir("stop");
    mock = await startMockOpenAI({ port: 0 });
  });

  afterAll(async () => {
    gateway?.kill("SIGKILL");
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("exits 0 after the drain even though a plugin tool left an interval and a listening socket open", async () => {
    const { configPath, env } = await writeConfig(dir, {
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "k", maxRetries: 0 } },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [HANDLE_HOLDER_PLUGIN] } },
    });
    gateway = await spawnServer({ args: ["gateway", "--port", "0", "--config", configPath], env });

    const answer = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-toolsift-session": "handles" },
      body: JSON.stringify({ input: "start the heartbeat target=hold_handle" }),
    });
    const body = (await answer.json()) as { output_text?: string };
    expect(answer.status, JSON.stringify(body)).toBe(200);
    // The tool ran and left its handles open in the gateway process.
    expect(body.output_text).toContain("holding 2 handles");

    gateway.kill("SIGTERM");
    // Before: "stopped" was printed, then the process lived on until a second signal (this wait timed out).
    const exit = await gateway.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(gateway.stderr()).toContain("SIGTERM received, draining in-flight runs");
    expect(gateway.stderr()).toContain("toolsift gateway stopped");
    expect(isAlive(gateway.pid)).toBe(false);
  }, 60_000);
});
