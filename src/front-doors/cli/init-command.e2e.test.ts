import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltCliOutcome, runBuiltCli } from "./built-cli.test-support.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "dist/front-doors/cli/main.js");

let scratch = "";

/** Runs the built bin in `cwd` with a fresh home. */
function toolsift(cwd: string, ...args: string[]): Promise<BuiltCliOutcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch, TOOLSIFT_HOME: join(scratch, "home") };
  delete env.TOOLSIFT_CONFIG;
  return runBuiltCli(args, env, { cwd });
}

beforeAll(async () => {
  if (!existsSync(bin)) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  scratch = await mkdtemp(join(tmpdir(), "toolsift-init-"));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const FILES = [
  "catalog.json",
  "plugins/weather/index.js",
  "plugins/weather/toolsift.plugin.json",
  "toolsift.json5",
];

describe("toolsift init", () => {
  it("writes the starter files into --dir; the config is valid and its plugin and catalog are searchable", async () => {
    const dir = join(scratch, "project");
    const outcome = await toolsift(scratch, "init", "--dir", dir);
    expect(outcome.code).toBe(0);
    for (const file of FILES) expect(outcome.stdout).toContain(`wrote ${join(dir, file)}\n`);
    expect((await readdir(dir, { recursive: true })).filter((path) => path.includes(".")).sort()).toEqual(
      FILES,
    );
    const doctor = await toolsift(dir, "doctor", "--config", "toolsift.json5");
    expect(doctor.stdout).toContain("toolsift.json5 is valid");
    expect(doctor.stdout).toContain("weather: loaded from");
    const search = await toolsift(dir, "search", "weather forecast", "--config", "toolsift.json5");
    expect(search.stdout).toMatch(/^1\. native:weather:get_forecast\n/u);
    const catalog = await toolsift(
      dir,
      "search",
      "look up the price of bitcoin",
      "--catalog",
      "catalog.json",
    );
    expect(catalog.stdout).toContain("native:finance:get_crypto_price");
  });

  it("writes into the current folder by default, and refuses (exit 1) to overwrite, naming the files", async () => {
    const dir = join(scratch, "again");
    expect((await toolsift(scratch, "init", "--dir", dir)).code).toBe(0);
    await writeFile(join(dir, "toolsift.json5"), "{ mine: true }\n");
    const outcome = await toolsift(dir, "init");
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toBe(
      `error: toolsift init writes nothing: these files exist: ${FILES.slice()
        .sort((a, b) => order(a) - order(b))
        .map((file) => join(dir, file))
        .join(", ")}. Move or delete them, or run toolsift init --dir <empty folder>.\n`,
    );
    expect(await readFile(join(dir, "toolsift.json5"), "utf8")).toBe("{ mine: true }\n");
  });
});

/** The order init lists its files in. */
function order(file: string): number {
  return [
    "toolsift.json5",
    "plugins/weather/toolsift.plugin.json",
    "plugins/weather/index.js",
    "catalog.json",
  ].indexOf(file);
}
