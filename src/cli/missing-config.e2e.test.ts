import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "dist/cli/main.js");

type Outcome = { code: number | null; stdout: string; stderr: string };

let home = "";
let missing = "";
let env: NodeJS.ProcessEnv = {};

/** Runs the built bin as a real child process in a fresh home (no config file at the default path). */
function toolsift(...args: string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
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

  it("the default path, when missing, is still just the defaults", async () => {
    const outcome = await toolsift("config", "get", "tools.toolSearch");
    expect(outcome).toMatchObject({ code: 1, stderr: "error: No value at tools.toolSearch.\n" });
    expect(await toolsift("sessions")).toMatchObject({ code: 0, stdout: "No sessions yet.\n", stderr: "" });
  });

  it("`toolsift config set` still creates the file --config names", async () => {
    const created = join(home, "new.json5");
    const outcome = await toolsift("config", "set", "tools.toolSearch", "true", "--config", created);
    expect(outcome).toMatchObject({ code: 0, stdout: `Created ${created}: tools.toolSearch = true\n` });
    expect(await readFile(created, "utf8")).toContain("toolSearch: true");
  });
});
