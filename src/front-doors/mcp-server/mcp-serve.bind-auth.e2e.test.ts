import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../runtime/mcp-client/mcp.test-support.js";
import { runBuiltCli } from "../cli/built-cli.test-support.js";

// The one bind rule (`checkBindAuth`) as users meet it: the built CLI, `mcp serve --http` and `gateway`
// given the same config, refused the same way, before anything listens.

/** Longest a refused start may take: a bound against a child that listens instead of exiting. */
const CHILD_BOUND_MS = 30_000;

const COMMANDS = [
  { command: "mcp serve --http", args: ["mcp", "serve", "--http", "0"] },
  { command: "gateway", args: ["gateway", "--port", "0"] },
];

const PROBES: Array<{
  probe: string;
  auth: Record<string, unknown>;
  bind?: string;
  env?: Record<string, string>;
  says: string;
}> = [
  {
    probe: "a whitespace token on loopback",
    auth: { token: "   " },
    says: "gateway.auth.token is empty or only whitespace in",
  },
  {
    probe: "an env: token whose variable holds only whitespace",
    auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" },
    env: { TOOLSIFT_GATEWAY_TOKEN: " \t" },
    says: "gateway.auth.token is empty or only whitespace in",
  },
  {
    probe: "0.0.0.0 with an empty env: token (left out)",
    auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" },
    bind: "0.0.0.0",
    env: { TOOLSIFT_GATEWAY_TOKEN: "" },
    says: "Refusing to listen on 0.0.0.0: a non-loopback address needs gateway.auth.token or gateway.auth.keys in",
  },
  {
    probe: "0.0.0.0 without gateway.auth",
    auth: {},
    bind: "0.0.0.0",
    says: "Refusing to listen on 0.0.0.0: a non-loopback address needs gateway.auth.token or gateway.auth.keys in",
  },
];

const CASES = COMMANDS.flatMap((command) => PROBES.map((probe) => ({ ...command, ...probe })));

let root: { path: string; cleanup(): Promise<void> };

beforeAll(async () => {
  root = await tempDir("toolsift-bind-auth-");
});

afterAll(async () => {
  await root?.cleanup();
});

describe("toolsift mcp serve --http and toolsift gateway (real processes): one bind rule", () => {
  it.each(CASES)("$command with $probe: exit 1, nothing listens, the setting named", async (row) => {
    const index = CASES.indexOf(row);
    const configPath = join(root.path, `config-${index}.json`);
    await writeFile(configPath, JSON.stringify({ gateway: { auth: row.auth } }));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "" };
    env.HOME = root.path;
    env.TOOLSIFT_HOME = root.path;
    env.TOOLSIFT_STATE_DIR = join(root.path, `state-${index}`);
    Object.assign(env, row.env);
    const args = [
      ...row.args,
      "--config",
      configPath,
      ...(row.bind === undefined ? [] : ["--bind", row.bind]),
    ];
    const result = await runBuiltCli(args, env, { boundMs: CHILD_BOUND_MS });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("listening on");
    expect(result.stderr).not.toContain("listening on");
    expect(result.stderr).toContain(`${row.says} ${configPath}`);
    expect(result.stderr).toContain("env:TOOLSIFT_GATEWAY_TOKEN");
    expect(result.stderr).not.toMatch(/\n\s+at\s/u);
  });
});
