import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createInstallation, type Installation } from "../doctor/doctor.test-support.js";
import { runCli } from "./run-cli.js";

let home: Installation;

beforeEach(async () => {
  home = await createInstallation();
  for (const [name, value] of Object.entries(home.env)) vi.stubEnv(name, value);
  vi.stubEnv("TOOLSIFT_CONFIG", undefined);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await home.cleanup();
});

async function toolsift(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("toolsift doctor (in process)", () => {
  it("exits 0 and prints one line per check when nothing is wrong", async () => {
    // Approvals off: with calls waiting for approval on a gateway without keys, doctor warns (gateway-auth).
    await home.writeConfig("{ tools: { toolSearch: true, approval: { require: [] } } }\n");
    const outcome = await toolsift("doctor", "--config", home.file);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toBe("");
    expect(outcome.stdout.split("\n")).toEqual([
      `ok     config: ${home.file} is valid`,
      "ok     retired-keys: no retired keys",
      `ok     state-dir: state directory ${home.stateDir} is writable`,
      "ok     providers: openai: API key from OPENAI_API_KEY (used by the built-in agent main with openai/gpt-5.4-mini)",
      "ok     mcp-servers: no MCP servers configured",
      "ok     plugins: no plugins configured",
      "ok     policy: every policy selector can match a tool",
      "ok     gateway-auth: no gateway keys: loopback only, every local caller trusted (no approvals wait for an operator)",
      "All checks passed.",
      "",
    ]);
  });

  it("exits 1 while retired keys remain, and 0 once --fix has migrated them", async () => {
    await home.writeConfig('{ tools: { toolSearch: { mode: "code", codeTimeoutMs: 2500 } } }\n');
    const before = await toolsift("doctor", "--config", home.file);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('error  retired-keys: tools.toolSearch.mode: "code" is retired');
    expect(before.stdout).toContain(`       fix: toolsift doctor --fix --config ${home.file}\n`);
    expect(before.stderr).toBe(
      `error: doctor found 2 errors; fix them and run toolsift doctor --config ${home.file} again.\n`,
    );

    const fixed = await toolsift("doctor", "--fix", "--config", home.file);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('fixed  retired-keys: tools.toolSearch.mode: "code" → "tools"\n');
    expect(fixed.stdout).toContain(
      "fixed  retired-keys: tools.toolSearch.codeTimeoutMs: removed (was 2500)\n",
    );
    expect(fixed.stdout).toMatch(
      /\nThe old file was saved as .*toolsift\.json\.bak-[^\n]+\n1 warning, 2 changes made\.\n$/u,
    );
    expect(await readFile(home.file, "utf8")).toBe('{ tools: { toolSearch: { mode: "tools" } } }\n');
  });

  it("--json prints the report as JSON on stdout and still fails on errors", async () => {
    await home.writeConfig("{ gateway: { port: 70000 } }\n");
    const outcome = await toolsift("doctor", "--json", "--config", home.file);
    expect(outcome.code).toBe(1);
    const report = JSON.parse(outcome.stdout) as {
      ok: boolean;
      configPath: string;
      checks: { name: string; status: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.configPath).toBe(home.file);
    expect(report.checks[0]).toMatchObject({
      name: "config",
      status: "error",
      details: [expect.stringMatching(/^gateway\.port: /u)],
    });
    expect(outcome.stderr).toBe(
      `error: doctor found 1 error; fix it and run toolsift doctor --config ${home.file} again.\n`,
    );
  });

  it("has --help, and rejects unknown options as usage errors", async () => {
    const help = await toolsift("doctor", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--fix");
    expect((await toolsift("doctor", "--fiks")).code).toBe(2);
  });
});
