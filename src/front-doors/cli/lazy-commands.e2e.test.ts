import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLI_ENTRY,
  ensureBuilt,
  LIBRARY_ENTRY,
  type Traced,
  traceNode,
} from "../../module-trace.test-support.js";

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
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), "toolsift-lazy-cli-"));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs the built bin with the trace preload; resolves with its exit code and what it loaded. */
function packagesLoadedBy(name: string, ...args: string[]): Promise<Traced> {
  return traceNode([CLI_ENTRY, ...args], join(scratch, `${name}.jsonl`));
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

  it('import("toolsift") loads no npm package, and only the bundle\'s own files (ajv and zod wait for their first use)', async () => {
    const { code, packages, ownFiles } = await traceNode(
      [
        "--input-type=module",
        "-e",
        `const toolsift = await import(${JSON.stringify(LIBRARY_ENTRY)}); if (typeof toolsift.createToolSearch !== "function") process.exit(3);`,
      ],
      join(scratch, "library-entry.jsonl"),
    );
    expect(code).toBe(0);
    expect(packages).toEqual([]);
    // The bundle and its eager shared chunks: none of tsc's per-folder files, and not the lazy Code Mode child.
    expect(ownFiles).toContain("dist/index.js");
    expect(
      ownFiles.filter((file) => file !== "dist/index.js" && !file.startsWith("dist/index-chunks/chunk-")),
    ).toEqual([]);
  });

  it("state --help loads commander and nothing else; state status without a state URL never loads pg", async () => {
    const help = await packagesLoadedBy("state-help", "state", "status", "--help");
    expect(help.code).toBe(0);
    expect(help.packages).toEqual(["commander"]);
    const { code, packages } = await traceNode(
      [CLI_ENTRY, "state", "status"],
      join(scratch, "state-status.jsonl"),
      { TOOLSIFT_HOME: scratch, TOOLSIFT_CONFIG: "", TOOLSIFT_STATE_URL: "" },
    );
    expect(code).toBe(0);
    expect(packages).toContain("commander");
    expect(packages).not.toContain("pg");
  });

  it("gateway --help loads commander and nothing else from node_modules", async () => {
    const { code, packages } = await packagesLoadedBy("gateway-help", "gateway", "--help");
    expect(code).toBe(0);
    expect(packages).toEqual(["commander"]);
  });
});
