import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "dist/cli/main.js");
/** The preload `npm run bench -- startup` counts modules with (an ESM resolve hook and a Module._load wrapper). */
const tracePreload = join(root, "bench/startup-trace.mjs");
/** Packages a command that does not serve, run agents or edit the config has no use for. */
const HEAVY_PACKAGES = [
  "zod",
  "json5",
  "openai",
  "@modelcontextprotocol/sdk",
  "hono",
  "@hono/node-server",
  "quickjs-emscripten",
];

let scratch = "";

beforeAll(async () => {
  if (!existsSync(bin)) {
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  }
  scratch = await mkdtemp(join(tmpdir(), "toolsift-lazy-cli-"));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs the built bin with the trace preload; resolves with its exit code and the npm packages it loaded. */
function packagesLoadedBy(
  name: string,
  ...args: string[]
): Promise<{ code: number | null; packages: string[] }> {
  return packagesLoadedByNode(name, [bin, ...args]);
}

/** Runs node with the trace preload and `nodeArgs`; resolves with its exit code and the npm packages it loaded. */
function packagesLoadedByNode(
  name: string,
  nodeArgs: readonly string[],
): Promise<{ code: number | null; packages: string[] }> {
  const trace = join(scratch, `${name}.jsonl`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", tracePreload, ...nodeArgs], {
      cwd: root,
      env: { ...process.env, STARTUP_TRACE_FILE: trace },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = existsSync(trace) ? readFileSync(trace, "utf8").split("\n").filter(Boolean) : [];
      const packages = new Set<string>();
      for (const line of lines) {
        const { url } = JSON.parse(line) as { url: string };
        const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/u.exec(url);
        if (match?.[1]) packages.add(match[1]);
      }
      resolve({ code, packages: [...packages].sort() });
    });
  });
}

describe.concurrent("commands import their implementation only when they run", () => {
  it("--version loads commander and nothing else from node_modules", async () => {
    const { code, packages } = await packagesLoadedBy("version", "--version");
    expect(code).toBe(0);
    expect(packages).toEqual(["commander"]);
  });

  it("search --catalog loads none of the server, model, config or sandbox packages", async () => {
    const { code, packages } = await packagesLoadedBy(
      "search",
      "search",
      "--catalog",
      "examples/catalog.json",
      "look up the price of bitcoin",
    );
    expect(code).toBe(0);
    expect(packages).toContain("commander");
    expect(packages.filter((name) => HEAVY_PACKAGES.includes(name))).toEqual([]);
  });

  it('import("toolsift") loads no npm package at all (ajv and zod wait for the first compile and the first cell)', async () => {
    const entry = JSON.stringify(join(root, "dist/index.js"));
    const { code, packages } = await packagesLoadedByNode("library-entry", [
      "--input-type=module",
      "-e",
      `const toolsift = await import(${entry}); if (typeof toolsift.createToolSearch !== "function") process.exit(3);`,
    ]);
    expect(code).toBe(0);
    expect(packages).toEqual([]);
  });

  it("gateway --help loads commander and nothing else from node_modules", async () => {
    const { code, packages } = await packagesLoadedBy("gateway-help", "gateway", "--help");
    expect(code).toBe(0);
    expect(packages).toEqual(["commander"]);
  });
});
