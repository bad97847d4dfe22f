import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { freePort, portIsFree } from "../gateway/ports.test-support.js";
import { startConfiguredGateway } from "./start-configured-gateway.js";

const TOKEN = "tsk-configured-gateway-0123456789";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolsift-configured-gateway-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(config: unknown): Promise<string> {
  const path = join(dir, "toolsift.json");
  await writeFile(path, JSON.stringify(config), "utf8");
  return path;
}

function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { TOOLSIFT_STATE_DIR: join(dir, "state"), TOOLSIFT_HOME: join(dir, "home"), ...extra };
}

async function refusal(start: Promise<unknown>): Promise<Error> {
  try {
    await start;
  } catch (error) {
    expect(isToolsiftError(error) && error.code === "CONFIG_INVALID").toBe(true);
    return error as Error;
  }
  throw new Error("the gateway started");
}

describe("startConfiguredGateway: non-loopback binds", () => {
  it("refuses 0.0.0.0 without gateway.auth.token, naming the key and the env form, and does not listen", async () => {
    const configPath = await writeConfig({});
    const port = await freePort();
    const error = await refusal(
      startConfiguredGateway({ configPath, bind: "0.0.0.0", port }, () => {}, envWith()),
    );
    expect(error.message).toContain("gateway.auth.token");
    expect(error.message).toContain("env:TOOLSIFT_GATEWAY_TOKEN");
    expect(error.message).toContain(configPath);
    expect(await portIsFree(port)).toBe(true);
  });

  it("refuses when the token's environment variable is unset (the token is checked after env resolution)", async () => {
    const configPath = await writeConfig({
      gateway: { bind: "0.0.0.0", auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } },
    });
    const port = await freePort();
    const error = await refusal(startConfiguredGateway({ configPath, port }, () => {}, envWith()));
    expect(error.message).toContain("gateway.auth.token");
    expect(await portIsFree(port)).toBe(true);
  });

  it("serves 0.0.0.0 with a token from the environment, requiring it, with the approval routes", async () => {
    const configPath = await writeConfig({
      gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } },
      tools: { approval: { mode: "ask", require: ["exec"], timeoutMs: 1000 } },
    });
    const lines: string[] = [];
    const running = await startConfiguredGateway(
      { configPath, bind: "0.0.0.0", port: 0 },
      (line) => lines.push(line),
      envWith({ TOOLSIFT_GATEWAY_TOKEN: TOKEN }),
    );
    try {
      const base = running.url.replace("0.0.0.0", "127.0.0.1");
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const refused = await fetch(`${base}/v1/approvals`);
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain(TOKEN);
      const listed = await fetch(`${base}/v1/approvals`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(listed.status).toBe(200);
      expect(await listed.json()).toEqual({ approvals: [] });
    } finally {
      await running.stop();
    }
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("on loopback with a token configured, still requires it", async () => {
    const configPath = await writeConfig({ gateway: { auth: { token: TOKEN } } });
    const running = await startConfiguredGateway(
      { configPath, bind: "127.0.0.1", port: 0 },
      () => {},
      envWith(),
    );
    try {
      expect((await fetch(`${running.url}/v1/sessions`)).status).toBe(401);
      const ok = await fetch(`${running.url}/v1/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
    } finally {
      await running.stop();
    }
  });

  it("serves 0.0.0.0 with keys alone (no token), each key opening its scopes", async () => {
    const configPath = await writeConfig({
      gateway: {
        auth: {
          keys: [
            { id: "runner", token: "env:RUNNER_TOKEN", scopes: ["runs"] },
            { id: "reader", token: "env:READER_TOKEN", scopes: ["sessions:read"] },
          ],
        },
      },
    });
    const env = envWith({ RUNNER_TOKEN: `${TOKEN}-runner`, READER_TOKEN: `${TOKEN}-reader` });
    const lines: string[] = [];
    const running = await startConfiguredGateway(
      { configPath, bind: "0.0.0.0", port: 0 },
      (line) => lines.push(line),
      env,
    );
    try {
      const base = running.url.replace("0.0.0.0", "127.0.0.1");
      const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
      expect((await fetch(`${base}/v1/sessions`)).status).toBe(401);
      expect((await fetch(`${base}/v1/sessions`, as(`${TOKEN}-runner`))).status).toBe(403);
      expect((await fetch(`${base}/v1/sessions`, as(`${TOKEN}-reader`))).status).toBe(200);
    } finally {
      await running.stop();
    }
    expect(lines).toContain(
      "gateway auth: every route but /healthz requires one of the keys runner, reader (gateway.auth)",
    );
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("refuses to start when a key's token variable is unset, naming the key", async () => {
    const configPath = await writeConfig({
      gateway: { auth: { keys: [{ id: "ci", token: "env:CI_TOKEN", scopes: ["runs"] }] } },
    });
    const port = await freePort();
    const error = await refusal(startConfiguredGateway({ configPath, port }, () => {}, envWith()));
    expect(error.message).toContain('gateway.auth.keys[0].token (key "ci") is missing or empty');
    expect(await portIsFree(port)).toBe(true);
  });

  it("on loopback without a token, stays open", async () => {
    const configPath = await writeConfig({});
    const running = await startConfiguredGateway(
      { configPath, bind: "127.0.0.1", port: 0 },
      () => {},
      envWith(),
    );
    try {
      expect((await fetch(`${running.url}/v1/sessions`)).status).toBe(200);
    } finally {
      await running.stop();
    }
  });
});

describe("startConfiguredGateway: MCP servers", () => {
  it("connects them once listening and logs each server's status, a failed one included", async () => {
    const fixture = join(import.meta.dirname, "../../../test/fixtures/mcp/stdio-server.mjs");
    const configPath = await writeConfig({
      mcp: {
        servers: {
          good: { command: process.execPath, args: [fixture] },
          broken: { command: join(dir, "no-such-command") },
        },
      },
    });
    const lines: string[] = [];
    const gateway = await startConfiguredGateway(
      { configPath, port: 0 },
      (line) => lines.push(line),
      envWith(),
    );
    try {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && lines.filter((line) => line.startsWith("mcp server ")).length < 2) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(lines.find((line) => line.startsWith("mcp server good:"))).toMatch(
        /^mcp server good: ready, \d+ tools$/,
      );
      expect(lines.find((line) => line.startsWith("mcp server broken:"))).toMatch(
        /^mcp server broken: failed, 0 tools: /,
      );
    } finally {
      await gateway.stop();
    }
  }, 30_000);
});

describe("startConfiguredGateway: sessions.retention", () => {
  it("prunes old session logs at start, logs it, and keeps a recent one", async () => {
    const sessionsDir = join(dir, "state", "agents", "main", "sessions");
    await mkdir(sessionsDir, { recursive: true });
    const old = join(sessionsDir, "old.jsonl");
    await writeFile(old, '{"type":"session"}\n');
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await utimes(old, longAgo, longAgo);
    await writeFile(join(sessionsDir, "recent.jsonl"), '{"type":"session"}\n');
    const configPath = await writeConfig({ sessions: { retention: { maxAgeDays: 30 } } });
    const lines: string[] = [];
    const pruned = new Promise<void>((resolve) => {
      const log = (line: string) => {
        lines.push(line);
        if (line.startsWith("sessions.retention:")) resolve();
      };
      void startConfiguredGateway({ configPath, port: 0 }, log, envWith()).then((gateway) =>
        pruned.then(() => gateway.stop()),
      );
    });
    await pruned;
    expect(lines).toContain("sessions.retention: removed 1 session logs (19 bytes); 19 bytes kept");
    expect(await readdir(sessionsDir)).toEqual(["recent.jsonl"]);
  });
});
