import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInstallation, type Installation } from "../doctor/doctor.test-support.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "dist/cli/main.js");

type Outcome = { code: number | null; stdout: string; stderr: string };

let home: Installation;

/** Runs the built bin as a real child process, in the temp installation's environment. */
function toolsift(...args: string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...home.env,
      PATH: `${home.binDir}:${process.env.PATH ?? ""}`,
    };
    delete env.TOOLSIFT_CONFIG;
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home.dir,
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

beforeAll(() => {
  if (!existsSync(bin) || !existsSync(join(root, "dist/cli/doctor-command.js"))) {
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
