import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltCliOutcome, runBuiltCli } from "./built-cli.test-support.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "dist/front-doors/cli/main.js");

let home = "";
let missing = "";
let env: NodeJS.ProcessEnv = {};

/** Runs the built bin as a real child process in a fresh home (no config file at the default path). */
function toolsift(...args: string[]): Promise<BuiltCliOutcome> {
  return toolsiftWith(env, ...args);
}

/** Runs the built bin with the given environment. */
function toolsiftWith(childEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<BuiltCliOutcome> {
  return runBuiltCli(args, childEnv, { cwd: home });
}

beforeAll(async () => {
  if (!existsSync(bin))
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  home = await mkdtemp(join(tmpdir(), "toolsift-missing-config-"));
  missing = join(home, "typo.json5");
  env = { ...process.env, HOME: home, TOOLSIFT_HOME: home, TOOLSIFT_STATE_DIR: join(home, "state") };
  delete env.TOOLSIFT_CONFIG;
}, 300_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe.concurrent("--config naming a missing file", () => {
  it.each([
    ["gateway", "--port", "0"],
    ["mcp", "serve"],
    ["search", "weather"],
    ["search", "weather", "--catalog", join(root, "examples/catalog.json")],
    ["tools"],
    ["sessions"],
    ["sessions", "show", "main/demo"],
    ["config", "get", "tools.toolSearch"],
    ["config", "unset", "tools.toolSearch"],
  ])("`toolsift %s …` fails with exit 1 naming the path, and starts nothing", async (...args) => {
    const outcome = await toolsift(...args, "--config", missing);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toBe(
      `error: Config file ${missing} does not exist (named by --config). Check the path; to start a new file there, run toolsift config set --config ${missing} <path> <value>.\n`,
    );
    expect(await readdir(home)).not.toContain("typo.json5");
  });

  it("`toolsift doctor` reports it as an error (exit 1) and its hints name the same --config", async () => {
    const outcome = await toolsift("doctor", "--config", missing);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain(
      `error  config: config file ${missing} does not exist (named by --config)`,
    );
    expect(outcome.stdout).toContain(
      `fix: check the path, or start the file with toolsift config set --config ${missing}`,
    );
    expect(outcome.stderr).toBe(
      `error: doctor found 1 error; fix it and run toolsift doctor --config ${missing} again.\n`,
    );
  });

  it("the default path, when missing, is still just the defaults, and config get says the file is missing", async () => {
    const outcome = await toolsift("config", "get", "tools.toolSearch");
    expect(outcome).toMatchObject({
      code: 1,
      stderr: `error: No value at tools.toolSearch. There is no config file at ${join(home, "toolsift.json")} (the defaults apply); toolsift config set creates it, toolsift init writes a starter one.\n`,
    });
    expect(await toolsift("sessions")).toMatchObject({ code: 0, stdout: "No sessions yet.\n", stderr: "" });
  });

  it("`toolsift config set` still creates the file --config names", async () => {
    const created = join(home, "new.json5");
    const outcome = await toolsift("config", "set", "tools.toolSearch", "true", "--config", created);
    expect(outcome).toMatchObject({ code: 0, stdout: `Created ${created}: tools.toolSearch = true\n` });
    expect(await readFile(created, "utf8")).toContain("toolSearch: true");
  });
});

describe.concurrent("TOOLSIFT_CONFIG naming a missing file", () => {
  it.each([["gateway", "--port", "0"], ["mcp", "serve"], ["tools"], ["config", "get", "tools.toolSearch"]])(
    "`toolsift %s …` fails with exit 1 naming the variable, and starts nothing",
    async (...args) => {
      const outcome = await toolsiftWith({ ...env, TOOLSIFT_CONFIG: missing }, ...args);
      expect(outcome).toEqual({
        code: 1,
        stdout: "",
        stderr: `error: Config file ${missing} does not exist (named by TOOLSIFT_CONFIG). Check the path, or unset TOOLSIFT_CONFIG to use the default file; to start a new file there, run toolsift config set <path> <value>.\n`,
      });
    },
  );
});

describe("a gateway start without a usable provider", () => {
  it("says at start which key to set, then listens", async () => {
    const keyless = { ...env };
    delete keyless.OPENAI_API_KEY;
    const child = spawn(process.execPath, [bin, "gateway", "--port", "0"], {
      cwd: home,
      env: keyless,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const listening = await new Promise<string>((resolve) => {
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        if (stdout.includes("\n")) resolve(stdout);
      });
      child.on("close", () => resolve(stdout));
    });
    child.kill("SIGTERM");
    expect(await closed).toBe(0);
    expect(listening).toMatch(/^toolsift gateway listening on http:\/\/127\.0\.0\.1:\d+\n$/u);
    expect(stderr).toContain(
      'warning: Provider "openai" has no API key for https://api.openai.com/v1. Set OPENAI_API_KEY, or models.providers.openai.apiKey (for example "env:OPENAI_API_KEY"); runs that use this provider fail until it is fixed (toolsift doctor checks it).\n',
    );
  });
});

describe.concurrent("search with no configured catalog", () => {
  it("says there is nothing to search and why: no config file, so no plugin", async () => {
    expect(await toolsift("search", "weather")).toEqual({
      code: 0,
      stdout: `No tools match: there are no tools to search. There is no config file at ${join(home, "toolsift.json")}, so no plugin is loaded: run toolsift init to start one with an example plugin, or search a file with --catalog FILE.\n`,
      stderr: "",
    });
  });

  it("a config that loads no plugin says so", async () => {
    const file = join(home, "no-plugins.json5");
    await writeFile(file, "{}\n");
    expect(await toolsift("search", "weather", "--config", file)).toEqual({
      code: 0,
      stdout: `No tools match: there are no tools to search. ${file} loads no plugin with tools (plugins.load.paths): add one, or search a file with --catalog FILE.\n`,
      stderr: "",
    });
  });
});
