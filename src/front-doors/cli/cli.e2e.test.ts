import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { writeFakePlugin } from "../../dev/qa/index.js";
import { type BuiltCliOutcome, runBuiltCli } from "./built-cli.test-support.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "dist/front-doors/cli/main.js");
const catalog = "examples/catalog.json";
const BITCOIN_LEADERS = ["native:core:web_search", "native:finance:get_crypto_price"];

/** Runs the built bin as a real child process from the project root. */
function run(...args: string[]): Promise<BuiltCliOutcome> {
  return runBuiltCli(args, process.env, { cwd: root });
}

function rankedIds(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^\d+\. /u.test(line))
    .map((line) => line.replace(/^\d+\. /u, ""));
}

let scratch = "";

beforeAll(async () => {
  if (!existsSync(bin)) {
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  }
  scratch = await mkdtemp(join(tmpdir(), "toolsift-cli-"));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.concurrent("toolsift bin", () => {
  it("starts with a node shebang", ({ expect }) => {
    expect(readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("--help on the program lists the search command", async ({ expect }) => {
    const outcome = await run("--help");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("Usage: toolsift");
    expect(outcome.stdout).toMatch(/search \[options\] <query\.\.\.>/u);
    expect(outcome.stderr).toBe("");
  });

  it("--version prints the package version", async ({ expect }) => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    const outcome = await run("--version");
    expect(outcome).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
  });

  it("no command is a usage error", async ({ expect }) => {
    const outcome = await run();
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toContain("Usage: toolsift");
  });

  it("an unknown command is a usage error", async ({ expect }) => {
    const outcome = await run("serach", "x");
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("error: unknown command 'serach'");
  });
});

describe.concurrent("toolsift search", () => {
  it("--help documents the options and the file formats", async ({ expect }) => {
    const outcome = await run("search", "--help");
    expect(outcome.code).toBe(0);
    for (const text of [
      "Usage: toolsift search",
      "--catalog <file>",
      "--limit <n>",
      "--json",
      "tools/list",
    ]) {
      expect(outcome.stdout).toContain(text);
    }
  });

  it("finds a price tool first for the bitcoin query, as a readable ranked list", async ({ expect }) => {
    const outcome = await run("search", "look up the price of bitcoin", "--catalog", catalog);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toBe("");
    const ids = rankedIds(outcome.stdout);
    expect(BITCOIN_LEADERS).toContain(ids[0]);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.length).toBeLessThanOrEqual(8);
    const lines = outcome.stdout.split("\n");
    expect(lines[0]).toBe(`1. ${ids[0]}`);
    expect(lines[1]).toMatch(/^ {3}input: {2}\{ .*\}$/u);
    expect(outcome.stdout).toContain("   Get the current price of a cryptocurrency such as bitcoin or ether");
  });

  it("accepts the query as several unquoted words", async ({ expect }) => {
    const outcome = await run("search", "--catalog", catalog, "look", "up", "the", "price", "of", "bitcoin");
    expect(outcome.code).toBe(0);
    expect(BITCOIN_LEADERS).toContain(rankedIds(outcome.stdout)[0]);
  });

  it("--json prints the exact candidate array, 2-space indented", async ({ expect }) => {
    const outcome = await run("search", "look up the price of bitcoin", "--catalog", catalog, "--json");
    expect(outcome.code).toBe(0);
    const candidates = JSON.parse(outcome.stdout) as Array<Record<string, unknown>>;
    expect(outcome.stdout).toBe(`${JSON.stringify(candidates, null, 2)}\n`);
    expect(BITCOIN_LEADERS).toContain(candidates[0]?.id);
    const crypto = candidates.find((candidate) => candidate.id === "native:finance:get_crypto_price");
    expect(crypto).toMatchObject({
      source: "native",
      owner: "finance",
      name: "get_crypto_price",
      description: "Get the current price of a cryptocurrency such as bitcoin or ether in a fiat currency.",
    });
    expect(crypto?.input).toMatch(/^\{ coin: string; currency\?: string \}$/u);
    for (const candidate of candidates) expect(candidate).not.toHaveProperty("parameters");
  });

  it("--limit caps the number of results", async ({ expect }) => {
    const json = await run(
      "search",
      "look up the price of bitcoin",
      "--catalog",
      catalog,
      "--limit",
      "2",
      "--json",
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(2);
    const text = await run("search", "send a message", "--catalog", catalog, "--limit", "1");
    expect(text.code).toBe(0);
    expect(rankedIds(text.stdout)).toHaveLength(1);
  });

  it("a limit above the maximum is capped at maxSearchLimit (20)", async ({ expect }) => {
    const outcome = await run(
      "search",
      "get list search create send",
      "--catalog",
      catalog,
      "--limit",
      "500",
      "--json",
    );
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toHaveLength(20);
  });

  it("zero results: how many tools were searched and why, in text mode; [] plus the reason on stderr in JSON mode; exit 0", async ({
    expect,
  }) => {
    const why = [
      "No tools match (searched 41 tools from examples/catalog.json).",
      'No tool matched "xylophone quasar". These words match no tool: xylophone, quasar. Try shorter English capability words: a verb and an object, e.g. "send email", "list files", "create event".',
      "",
    ].join("\n");
    const text = await run("search", "xylophone quasar", "--catalog", catalog);
    expect(text).toEqual({ code: 0, stdout: why, stderr: "" });
    const json = await run("search", "xylophone quasar", "--catalog", catalog, "--json");
    expect(json).toEqual({ code: 0, stdout: "[]\n", stderr: why });
  });

  it("zero results for a query in a script the catalog lacks says so", async ({ expect }) => {
    const outcome = await run("search", "отправить письмо", "--catalog", catalog);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("No tools match (searched 41 tools from examples/catalog.json).\n");
    expect(outcome.stdout).toContain(
      "The catalog has no text in Cyrillic script: write the query in English.",
    );
  });

  it("an empty catalog file: nothing to search, and the file is named", async ({ expect }) => {
    const path = join(scratch, "empty.json");
    await writeFile(path, "[]\n");
    const outcome = await run("search", "weather", "--catalog", path);
    expect(outcome).toEqual({
      code: 0,
      stdout: `No tools match: there are no tools to search. ${path} lists no tools.\n`,
      stderr: "",
    });
  });

  it("searches an MCP tools/list file, owned by the file's base name", async ({ expect }) => {
    const path = join(scratch, "calendar.json");
    await writeFile(
      path,
      JSON.stringify({
        tools: [
          { name: "create_event", description: "Create a calendar event", inputSchema: { type: "object" } },
          { name: "delete_event", description: "Delete a calendar event", inputSchema: { type: "object" } },
        ],
      }),
    );
    const outcome = await run("search", "create a calendar event", "--catalog", path, "--json");
    expect(outcome.code).toBe(0);
    const [first] = JSON.parse(outcome.stdout) as Array<Record<string, unknown>>;
    expect(first).toMatchObject({ id: "mcp:calendar:create_event", source: "mcp", input: "unknown" });
  });

  it("an invalid file fails with exit 1 and a file:line message, no stack trace", async ({ expect }) => {
    const path = join(scratch, "broken.json");
    await writeFile(path, '[\n  {"name": "a"},\n  {"name": 3}\n]\n');
    const outcome = await run("search", "anything", "--catalog", path);
    expect(outcome).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: ${path}:3: a tool needs a non-empty string "name", found 3\n`,
    });
  });

  it("a file that is not JSON fails with exit 1", async ({ expect }) => {
    const path = join(scratch, "notes.txt");
    await writeFile(path, "these are not tools\n");
    const outcome = await run("search", "anything", "--catalog", path);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(`error: ${path}:1: invalid JSON: expected a value, found "t"\n`);
  });

  it("a missing file fails with exit 1", async ({ expect }) => {
    const outcome = await run("search", "anything", "--catalog", "no/such/catalog.json");
    expect(outcome).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: no/such/catalog.json: cannot read the file (no such file)\n",
    });
  });

  it.for(["0", "-1", "abc", "2.5", "1e3", ""])(
    "--limit %j is a usage error (exit 2)",
    async (limit, { expect }) => {
      const outcome = await run("search", "bitcoin", "--catalog", catalog, `--limit=${limit}`);
      expect(outcome.code).toBe(2);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toContain("limit must be a positive integer.");
    },
  );

  it("a missing query is a usage error", async ({ expect }) => {
    const outcome = await run("search", "--catalog", catalog);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("error: missing required argument 'query'");
  });

  it("a blank query is a usage error", async ({ expect }) => {
    const outcome = await run("search", "   ", "--catalog", catalog);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("error: the query must not be blank");
  });

  it("an unknown option is a usage error", async ({ expect }) => {
    const outcome = await run("search", "bitcoin", "--catalog", catalog, "--fuzzy");
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("error: unknown option '--fuzzy'");
  });

  it("without --catalog it searches the configured catalog (the config's plugins)", async ({ expect }) => {
    const pluginDir = await writeFakePlugin(join(scratch, "configured", "fake-plugin"));
    const configPath = join(scratch, "configured", "toolsift.json");
    await writeFile(configPath, JSON.stringify({ plugins: { load: { paths: [pluginDir] } } }));
    const outcome = await run(
      "search",
      "fake_plugin_tool_17",
      "--config",
      configPath,
      "--limit",
      "1",
      "--json",
    );
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)[0].id).toBe("native:fake-plugin:fake_plugin_tool_17");
  });

  it("refuses an invalid config file with every problem listed (exit 1)", async ({ expect }) => {
    const configPath = join(scratch, "bad-config.json");
    await writeFile(configPath, '{ tools: { toolSearch: { mode: "fast" } }, gateway: { port: 70000 } }');
    const outcome = await run("search", "anything", "--config", configPath);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("tools.toolSearch.mode");
    expect(outcome.stderr).toContain("gateway.port");
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });
});
