import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileSessionStore, type SessionStore } from "../../runtime/sessions/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import { freePort, portIsFree } from "./ports.test-support.js";
import { startGateway } from "./start-gateway.js";

let stateDir: string;
let sessions: SessionStore;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "toolsift-start-gateway-"));
  sessions = createFileSessionStore(stateDir);
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe("startGateway: exposure", () => {
  it.each(["0.0.0.0", "::"])("refuses %s without an auth token, before listening", async (host) => {
    const port = await freePort();
    let thrown: unknown;
    try {
      await startGateway({ runner: new FakeRunner(sessions), sessions, host, port, log: () => {} });
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toContain("gateway.auth.token");
    expect(await portIsFree(port)).toBe(true);
  });

  it("serves 0.0.0.0 with a token, and the token guards it", async () => {
    const started = await startGateway({
      runner: new FakeRunner(sessions),
      sessions,
      host: "0.0.0.0",
      port: 0,
      authToken: "tsk-start-gateway-token",
      log: () => {},
    });
    try {
      const base = `http://127.0.0.1:${started.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/v1/sessions`)).status).toBe(401);
      const authorized = await fetch(`${base}/v1/sessions`, {
        headers: { authorization: "Bearer tsk-start-gateway-token" },
      });
      expect(authorized.status).toBe(200);
    } finally {
      await started.stop();
    }
  });

  it("serves loopback without a token", async () => {
    const started = await startGateway({
      runner: new FakeRunner(sessions),
      sessions,
      host: "127.0.0.1",
      port: 0,
      log: () => {},
    });
    try {
      expect((await fetch(`${started.url}/v1/sessions`)).status).toBe(200);
    } finally {
      await started.stop();
    }
  });
});
