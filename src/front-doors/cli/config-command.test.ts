import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import JSON5 from "json5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseValue } from "./config-command.js";
import { runCli } from "./run-cli.js";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "toolsift-config-cli-"));
  file = path.join(dir, "toolsift.json");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `toolsift config <args> --config <file>` in process. */
async function config(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(["config", ...args, "--config", file], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const SAMPLE = `{
  // which model answers
  agents: {
    defaults: { model: "openai/gpt-5.4-mini" },
    list: [
      { id: "main", tools: { allow: ["group:fs", "weather_*"] } },
      { id: "ops" }, // the on-call agent
    ],
  },
  tools: { toolSearch: { mode: "directory", maxSearchLimit: 12 } },
}
`;

describe("toolsift config get", () => {
  it("prints values at dotted paths and array indexes as JSON5, or as JSON with --json", async () => {
    await writeFile(file, SAMPLE);
    expect(await config("get", "tools.toolSearch")).toEqual({
      code: 0,
      stdout: '{ mode: "directory", maxSearchLimit: 12 }\n',
      stderr: "",
    });
    expect((await config("get", "agents.list[1].id")).stdout).toBe('"ops"\n');
    expect((await config("get", "agents.list[0].tools.allow[1]")).stdout).toBe('"weather_*"\n');
    expect((await config("get", "tools.toolSearch.maxSearchLimit")).stdout).toBe("12\n");
    expect((await config("get", "agents.list[0]", "--json")).stdout).toBe(
      `${JSON.stringify({ id: "main", tools: { allow: ["group:fs", "weather_*"] } }, null, 2)}\n`,
    );
  });

  it("exits 1 with `No value at <path>.` for a missing value; a missing --config file is named", async () => {
    await writeFile(file, SAMPLE);
    expect(await config("get", "tools.allow")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: No value at tools.allow.\n",
    });
    expect((await config("get", "agents.list[5]")).stderr).toBe("error: No value at agents.list[5].\n");
    expect((await config("get", "tools.toolSearch.mode.x")).stderr).toBe(
      "error: No value at tools.toolSearch.mode.x.\n",
    );
    await rm(file);
    expect((await config("get", "tools")).stderr).toBe(
      `error: Config file ${file} does not exist (named by --config). Check the path; to start a new file there, run toolsift config set --config ${file} <path> <value>.\n`,
    );
  });

  it("is a usage error (exit 2) for a malformed path", async () => {
    const outcome = await config("get", "tools..toolSearch");
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('Invalid config path "tools..toolSearch"');
  });
});

describe("toolsift config set", () => {
  it("parses the value as JSON5, else takes it as a string", async () => {
    await writeFile(file, SAMPLE);
    expect(await config("set", "tools.toolSearch", "true")).toEqual({
      code: 0,
      stdout: `Updated ${file}: tools.toolSearch = true\n`,
      stderr: "",
    });
    expect(await config("set", "agents.defaults.model", "openai/gpt-5.4")).toMatchObject({ code: 0 });
    expect(await config("set", "gateway.port", "18790")).toMatchObject({ code: 0 });
    expect(
      await config("set", "agents.list[1].tools", '{ deny: ["exec"], profile: "coding" }'),
    ).toMatchObject({
      code: 0,
    });
    const text = await readFile(file, "utf8");
    expect(JSON5.parse(text)).toMatchObject({
      tools: { toolSearch: true },
      agents: {
        defaults: { model: "openai/gpt-5.4" },
        list: [{ id: "main" }, { id: "ops", tools: { deny: ["exec"], profile: "coding" } }],
      },
      gateway: { port: 18790 },
    });
    expect(text).toContain("  // which model answers\n");
    expect(text).toContain(
      '{ id: "ops", tools: { deny: ["exec"], profile: "coding" } }, // the on-call agent\n',
    );
  });

  it("creates a missing file", async () => {
    expect(await config("set", "tools.toolSearch", "{ mode: 'tools' }")).toEqual({
      code: 0,
      stdout: `Created ${file}: tools.toolSearch = { mode: "tools" }\n`,
      stderr: "",
    });
    expect(await readFile(file, "utf8")).toBe('{\n  tools: { toolSearch: { mode: "tools" } },\n}\n');
  });

  it("refuses an invalid result with path: reason lines, exit 1, and the file untouched", async () => {
    await writeFile(file, SAMPLE);
    const before = { bytes: await readFile(file), mtime: (await stat(file)).mtimeMs };
    const outcome = await config("set", "tools.toolSearch.mode", "code");
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toMatch(
      /^error: Refused: the change would make .*toolsift\.json invalid:\ntools\.toolSearch\.mode: "code" is retired .*toolsift doctor --fix.*\nThe file was not changed\.\n$/u,
    );
    expect((await config("set", "agents.list[0].id", "ops")).stderr).toContain(
      'agents.list[1].id: duplicate agent id "ops" (first at agents.list[0])',
    );
    expect({ bytes: await readFile(file), mtime: (await stat(file)).mtimeMs }).toEqual(before);
    expect(await readdir(dir)).toEqual(["toolsift.json"]);
  });

  it("refuses an object or array that is not valid JSON5 instead of storing it as a string", async () => {
    const outcome = await config("set", "tools.toolSearch", "{ mode: tools");
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^error: The value looks like an object or array but is not valid JSON5/u);
    expect(await readdir(dir)).toEqual([]);
  });

  it("warns about problems the file already had, on stderr, after a change that did not add any", async () => {
    await writeFile(file, '{ tools: { toolSearch: { mode: "code" } } }\n');
    const outcome = await config("set", "gateway.port", "0");
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toMatch(
      /^warning: .* still has problems this change did not touch:\n {2}tools\.toolSearch\.mode: /u,
    );
  });
});

describe("toolsift config unset", () => {
  it("removes keys and array elements, keeping the rest of the file", async () => {
    await writeFile(file, SAMPLE);
    expect(await config("unset", "agents.list[0].tools")).toEqual({
      code: 0,
      stdout: `Updated ${file}: removed agents.list[0].tools\n`,
      stderr: "",
    });
    expect(await config("unset", "agents.list[1]")).toMatchObject({ code: 0 });
    expect(await readFile(file, "utf8")).toBe(
      SAMPLE.replace('{ id: "main", tools: { allow: ["group:fs", "weather_*"] } }', '{ id: "main" }').replace(
        '      { id: "ops" }, // the on-call agent\n',
        "",
      ),
    );
  });

  it("exits 1 for a value that is not there", async () => {
    await writeFile(file, SAMPLE);
    expect(await config("unset", "tools.deny")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: No value at tools.deny.\n",
    });
  });
});

describe("parseValue", () => {
  it.each([
    ["true", true],
    ["12", 12],
    ["null", null],
    ['"quoted"', "quoted"],
    ["'single'", "single"],
    ["[1, 'a']", [1, "a"]],
    ["openai/gpt-5.4-mini", "openai/gpt-5.4-mini"],
    ["env:OPENAI_API_KEY", "env:OPENAI_API_KEY"],
    ["http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"],
    ["", ""],
    ["hello world", "hello world"],
  ])("%j → %j", (text, value) => {
    expect(parseValue(text)).toEqual(value);
  });
});
