import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInstallation, type Installation } from "../doctor/doctor.test-support.js";
import { type BuiltCliOutcome, runBuiltCli } from "./built-cli.test-support.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "dist/front-doors/cli/main.js");

let home: Installation;

/** Runs the built bin as a real child process, in the temp installation's environment. */
function toolsift(...args: string[]): Promise<BuiltCliOutcome> {
  return toolsiftWithout([], ...args);
}

/** As toolsift, with the named environment variables unset. */
function toolsiftWithout(unset: readonly string[], ...args: string[]): Promise<BuiltCliOutcome> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...home.env,
    PATH: `${home.binDir}:${process.env.PATH ?? ""}`,
  };
  delete env.TOOLSIFT_CONFIG;
  for (const name of unset) delete env[name];
  return runBuiltCli(args, env, { cwd: home.dir });
}

beforeAll(() => {
  if (!existsSync(bin) || !existsSync(join(root, "dist/front-doors/cli/doctor-command.js"))) {
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  }
}, 300_000);

beforeEach(async () => {
  home = await createInstallation();
});

afterEach(async () => {
  await home.cleanup();
});

describe("an unmigrated config file (built bin)", () => {
  it.each([
    ['{ tools: { toolSearch: { mode: "code" } } }\n', "tools.toolSearch.mode"],
    ["{ tools: { toolSearch: { codeTimeoutMs: 2500 } } }\n", "tools.toolSearch.codeTimeoutMs"],
  ])("the gateway refuses to start on %j, naming %s and toolsift doctor --fix", async (text, key) => {
    await home.writeConfig(text);
    const outcome = await toolsift("gateway", "--port", "0", "--config", home.file);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stdout).not.toContain("listening");
    expect(outcome.stderr).toContain(`${key}: `);
    expect(outcome.stderr).toContain("toolsift doctor --fix");
    expect(outcome.stderr).not.toMatch(/\n\s+at /u);
  });

  it("doctor --fix migrates it, after which doctor passes", async () => {
    await home.writeConfig(
      '// kept\n{ tools: { toolSearch: { enabled: false, mode: "code", codeTimeoutMs: 2500, searchDefaultLimit: 4, maxSearchLimit: 12 } } }\n',
    );
    const before = await toolsift("doctor", "--config", home.file);
    expect(before.code).toBe(1);
    const fixed = await toolsift("doctor", "--fix", "--config", home.file);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('fixed  retired-keys: tools.toolSearch.mode: "code" → "tools"');
    expect(await readFile(home.file, "utf8")).toBe(
      '// kept\n{ tools: { toolSearch: { enabled: false, mode: "tools", searchDefaultLimit: 4, maxSearchLimit: 12 } } }\n',
    );
    const after = await toolsift("doctor", "--config", home.file);
    expect(after).toMatchObject({ code: 0, stderr: "" });
    expect(after.stdout).toContain("ok     retired-keys: no retired keys");
  });

  it("config set through the bin validates and writes", async () => {
    const outcome = await toolsift("config", "set", "tools.toolSearch", "true", "--config", home.file);
    expect(outcome).toEqual({
      code: 0,
      stdout: `Created ${home.file}: tools.toolSearch = true\n`,
      stderr: "",
    });
    expect(await toolsift("config", "get", "tools.toolSearch", "--config", home.file)).toEqual({
      code: 0,
      stdout: "true\n",
      stderr: "",
    });
  });
});

describe("hints name the --config the user passed (built bin)", () => {
  it("doctor on an unmigrated file says toolsift doctor --fix --config F, and to run doctor --config F again", async () => {
    await home.writeConfig('{ tools: { toolSearch: { mode: "code" } } }\n');
    const outcome = await toolsift("doctor", "--config", home.file);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain(`fix: toolsift doctor --fix --config ${home.file}\n`);
    expect(outcome.stdout).not.toMatch(/toolsift doctor --fix(?! --config)/u);
    expect(outcome.stderr).toBe(
      `error: doctor found 1 error; fix it and run toolsift doctor --config ${home.file} again.\n`,
    );
    const fixed = await toolsift("doctor", "--fix", "--config", home.file);
    expect(fixed.code).toBe(0);
  });
});

describe("wrong-typed tools.toolSearch limits are refused where a person meets them (built bin)", () => {
  const cases = [
    [
      '"12"',
      "searchDefaultLimit",
      'expected a positive integer (got "12"); write it as a number, without quotes (12)',
    ],
    ["-3", "maxSearchLimit", "expected a positive integer (got -3); use a whole number of at least 1"],
    ["1.5", "searchDefaultLimit", "expected a positive integer (got 1.5); use a whole number such as 1"],
  ] as const;

  it.each(cases)(
    "a file with %s: doctor and the gateway name the key and the fix",
    async (value, key, message) => {
      await home.writeConfig(`{ tools: { toolSearch: { ${key}: ${value} } } }\n`);
      const line = `tools.toolSearch.${key}: ${message}`;
      const doctor = await toolsift("doctor", "--config", home.file);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toContain(line);
      const gateway = await toolsift("gateway", "--port", "0", "--config", home.file);
      expect(gateway.code).toBe(1);
      expect(gateway.stdout).not.toContain("listening");
      expect(gateway.stderr).toContain(line);
      expect(gateway.stderr).not.toMatch(/\n\s+at /u);
    },
  );

  it.each(cases)("config set %s is refused and writes nothing", async (value, key, message) => {
    await home.writeConfig('{ tools: { toolSearch: { mode: "tools" } } }\n');
    const before = await readFile(home.file, "utf8");
    const outcome = await toolsift(
      "config",
      "set",
      `tools.toolSearch.${key}`,
      "--config",
      home.file,
      "--",
      value,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`tools.toolSearch.${key}: ${message}`);
    expect(await readFile(home.file, "utf8")).toBe(before);
  });
});

describe("doctor for a config that only uses mcp serve (built bin)", () => {
  it("passes without any provider key", async () => {
    await home.writeConfig('{ mcp: { servers: { calendar: { command: "calendar-mcp" } } } }\n');
    const outcome = await toolsiftWithout(["OPENAI_API_KEY"], "doctor", "--config", home.file);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toBe("");
    expect(outcome.stdout).toContain("toolsift mcp serve needs no provider key");
    expect(outcome.stdout).not.toMatch(/^error/mu);
  });
});
