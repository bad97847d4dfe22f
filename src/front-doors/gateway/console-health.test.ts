import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../runtime/config/index.js";
import type { Caller } from "../../runtime/http-guard/index.js";
import type { McpServerStatus } from "../../runtime/mcp-client/index.js";
import { createHealthChecks, type GatewayDiagnostics } from "./console-health.js";

const ADMIN: Caller = { keyId: "ops", scopes: ["admin"], trusted: false };
const READER: Caller = { keyId: "reader", scopes: ["sessions:read"], trusted: false };

type Shown = {
  available: boolean;
  details: boolean;
  servers: Array<Record<string, unknown>>;
  checks: Array<Record<string, unknown>>;
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolsift-console-health-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The config `toolsift gateway` would load from `config`, and MCP servers reporting `servers`. */
async function diagnostics(config: unknown, servers: McpServerStatus[]): Promise<GatewayDiagnostics> {
  const configPath = join(dir, "toolsift.json");
  await writeFile(configPath, JSON.stringify(config));
  const env = { PATH: process.env.PATH, TOOLSIFT_HOME: dir, TOOLSIFT_STATE_DIR: join(dir, "state") };
  return { loaded: await loadConfig({ configPath, env }), env, mcp: { status: () => servers } };
}

describe("the console's health checks", () => {
  it("gives an admin each check's words and each server's error; another key only names and statuses", async () => {
    const health = createHealthChecks(
      await diagnostics(
        {
          models: { providers: { openai: { api: "openai-responses" } } },
          mcp: { servers: { missing: { command: "no-such-command-toolsift-test" } } },
        },
        [
          {
            name: "missing",
            status: "failed",
            tools: 0,
            error: "spawn no-such-command-toolsift-test ENOENT",
          },
        ],
      ),
    );
    const admin = (await health(ADMIN)) as Shown;
    expect(admin).toMatchObject({ available: true, details: true });
    expect(admin.servers).toEqual([
      { name: "missing", status: "failed", tools: 0, error: "spawn no-such-command-toolsift-test ENOENT" },
    ]);
    const byName = (name: string) => admin.checks.filter((check) => check.name === name);
    expect(byName("state-dir")[0]).toMatchObject({ status: "ok" });
    expect(byName("mcp-servers")[0]).toMatchObject({
      status: "error",
      message: expect.stringContaining("missing"),
    });
    expect(byName("mcp-servers")[0]?.fix).toBeDefined();
    // The built-in agent uses OpenAI, which has no key here: the doctor's own finding.
    expect(byName("providers").some((check) => check.status !== "ok")).toBe(true);
    for (const name of ["policy", "gateway-auth"]) expect(byName(name)).not.toEqual([]);

    const reader = (await health(READER)) as Shown;
    expect(reader.details).toBe(false);
    expect(reader.servers).toEqual([{ name: "missing", status: "failed", tools: 0 }]);
    expect(reader.checks.map((check) => check.name)).toEqual(admin.checks.map((check) => check.name));
    for (const check of reader.checks) expect(Object.keys(check).sort()).toEqual(["name", "status"]);
  });

  it("runs the checks again only after 10 s, however often it is asked", async () => {
    let clock = 0;
    const found = await diagnostics({}, []);
    const health = createHealthChecks(found, () => clock);
    const first = (await health(ADMIN)) as Shown;
    expect(first.checks.find((check) => check.name === "state-dir")?.message).toContain("does not exist yet");
    // The state directory appears: the cached answer stands until the 10 s are over.
    await mkdir(join(dir, "state"));
    clock += 9_000;
    expect((await health(ADMIN)) as Shown).toEqual(first);
    clock += 2_000;
    const later = (await health(ADMIN)) as Shown;
    expect(later.checks.find((check) => check.name === "state-dir")?.message).toContain("is writable");
  });

  it("without diagnostics it says none are available", async () => {
    expect(await createHealthChecks(undefined)(ADMIN)).toEqual({
      available: false,
      servers: [],
      checks: [],
      details: true,
    });
  });
});
