import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { createGateway } from "./create-gateway.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import { startTestGateway } from "./gateway.test-support.js";
import type { GatewayListener } from "./types.js";

const TOKEN = "healthz-test-token-0123456789";

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A gateway with a token whose state directory sits under a regular file: it can never be written. */
async function gatewayOnUnwritableState(): Promise<{ url: string; stateDir: string }> {
  const root = await mkdtemp(join(tmpdir(), "toolsift-healthz-"));
  await writeFile(join(root, "blocker"), "a file where a directory should be");
  const stateDir = join(root, "blocker", "state");
  const sessions = createFileSessionStore(stateDir);
  const gateway = createGateway({
    runner: new FakeRunner(sessions),
    sessions,
    authToken: TOKEN,
    log: () => {},
  });
  const listener: GatewayListener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  cleanup.push(
    () => listener.close(),
    () => rm(root, { recursive: true, force: true }),
  );
  return { url: listener.url, stateDir };
}

describe("GET /healthz", () => {
  it("stays 200 while a provider is unreachable, and reports each provider's status beside liveness", async () => {
    const test = await startTestGateway();
    test.runner.providerStatus = () => ({ openai: "unreachable", local: "reachable", spare: "unknown" });
    const response = await test.get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      providers: { openai: "unreachable", local: "reachable", spare: "unknown" },
    });
  });

  it.each([
    ["no credentials", {}, false],
    ["a wrong bearer token", { authorization: "Bearer nope" }, false],
    ["the bearer token", { authorization: `Bearer ${TOKEN}` }, true],
    ["the token as x-api-key", { "x-api-key": TOKEN }, true],
  ] as const)(
    "with a token and %s: 503 with Retry-After, the path shown: %s",
    async (_name, headers, shown) => {
      const { url, stateDir } = await gatewayOnUnwritableState();
      const response = await fetch(`${url}/healthz`, { headers });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("10");
      const body = (await response.json()) as { ok: boolean; reason: string };
      expect(body.ok).toBe(false);
      if (shown) {
        expect(body.reason).toContain(stateDir);
        expect(body.reason).toContain("ENOTDIR");
      } else {
        expect(body.reason).not.toContain(stateDir);
        expect(body.reason).not.toContain("blocker");
        expect(body.reason).toContain("cannot be written");
      }
    },
  );
});
