import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startConfiguredGateway } from "./start-configured-gateway.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolsift-configured-limits-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A provider that accepts connections and never answers, counting the connections it got. */
async function silentProvider(): Promise<{
  port: number;
  connections: () => number;
  close(): Promise<void>;
}> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    connections: () => sockets.length,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes a config whose provider "silent" is at `port` (plus `rest`) and starts the gateway from it. */
async function startOverProvider(port: number, rest: Record<string, unknown>) {
  const configPath = join(dir, "toolsift.json");
  await writeFile(
    configPath,
    JSON.stringify({
      models: {
        providers: {
          silent: { api: "openai-responses", baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 },
        },
      },
      ...rest,
    }),
    "utf8",
  );
  return startConfiguredGateway({ configPath, port: 0 }, () => {}, {
    TOOLSIFT_STATE_DIR: join(dir, "state"),
    TOOLSIFT_HOME: join(dir, "home"),
  });
}

describe("startConfiguredGateway: gateway.maxQueuedPerSession", () => {
  it("is read from the config: with 0, a second run on a busy session is 429 with Retry-After", async () => {
    const provider = await silentProvider();
    const running = await startOverProvider(provider.port, {
      agents: { defaults: { model: "silent/model", runTimeoutMs: 60_000 } },
      gateway: { maxQueuedPerSession: 0 },
    });
    let first: Promise<unknown> = Promise.resolve();
    try {
      const post = (text: string) =>
        fetch(`${running.url}/v1/responses`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-toolsift-session": "busy" },
          body: JSON.stringify({ input: text }),
        });
      first = post("first").catch(() => undefined);
      // The first run is waiting on the provider: the session is busy.
      await expect.poll(() => provider.connections(), { timeout: 10_000 }).toBeGreaterThan(0);
      const second = await post("second");
      expect(second.status).toBe(429);
      expect(second.headers.get("retry-after")).toMatch(/^\d+$/u);
      expect(((await second.json()) as { error: { code: string } }).error.code).toBe("session_busy");
    } finally {
      await provider.close();
      await running.stop();
      await first;
    }
  });
});

describe("startConfiguredGateway: gateway.hostedTools", () => {
  it('is read from the config: with "reject", a hosted tool is a 400 naming the setting, before any provider request', async () => {
    const provider = await silentProvider();
    const running = await startOverProvider(provider.port, {
      agents: { defaults: { model: "silent/model" } },
      gateway: { hostedTools: "reject" },
    });
    try {
      const response = await fetch(`${running.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: "hi", tools: [{ type: "web_search" }] }),
      });
      expect(response.status).toBe(400);
      const error = ((await response.json()) as { error: { param: string; message: string } }).error;
      expect(error.param).toBe("tools[0].type");
      expect(error.message).toContain("gateway.hostedTools");
      expect(provider.connections()).toBe(0);
    } finally {
      await provider.close();
      await running.stop();
    }
  });
});
