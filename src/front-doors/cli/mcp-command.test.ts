import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { Command, type CommanderError } from "commander";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMcpCommand, type McpCommandDeps } from "./mcp-command.js";
import { runCli } from "./run-cli.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-mcp-cli-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Parses `mcp <args>` with a program wired like runCli; resolves when the command finishes. */
async function run(args: string[], deps: McpCommandDeps = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) };
  const program = new Command("toolsift")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const mcp = createMcpCommand(io, deps).copyInheritedSettings(program);
  for (const sub of mcp.commands) sub.copyInheritedSettings(mcp);
  program.addCommand(mcp);
  let error: unknown;
  try {
    await program.parseAsync(["mcp", ...args], { from: "user" });
  } catch (caught) {
    error = caught;
  }
  return { out: out.join(""), err: err.join(""), error };
}

const noSignal: McpCommandDeps["waitForShutdown"] = () => ({
  signal: new Promise<string>(() => {}),
  dispose() {},
});

async function writeConfig(config: unknown): Promise<string> {
  const file = join(root, "toolsift.json");
  await writeFile(file, JSON.stringify(config));
  return file;
}

describe("toolsift mcp serve: usage and refusals", () => {
  it.each([
    [["serve", "--bind", "0.0.0.0"], "--bind only applies with --http <port>"],
    [["serve", "--http", "70000"], "port must be an integer from 0 to 65535"],
    [["serve", "--http", "x"], "port must be an integer from 0 to 65535"],
    [["serve", "--http", "0", "--bind", " "], "bind must be an address"],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const err: string[] = [];
    const code = await runCli(["mcp", ...args], { stdout: () => {}, stderr: (text) => err.push(text) });
    expect(code).toBe(2);
    expect(err.join("")).toContain(message);
  });

  it("refuses a non-loopback address without gateway.auth.token, naming the fix", async () => {
    const config = await writeConfig({});
    const { error } = await run(["serve", "--config", config, "--http", "0", "--bind", "0.0.0.0"], {
      waitForShutdown: noSignal,
    });
    expect((error as Error).message).toContain(
      "Refusing to listen on 0.0.0.0: a non-loopback address needs gateway.auth.token",
    );
    expect((error as Error).message).toContain("gateway.auth.token");
  });

  it("refuses a bad tools.toolSearch value before serving anything", async () => {
    const config = await writeConfig({ tools: { toolSearch: { mode: "sideways" } } });
    const { error } = await run(["serve", "--config", config], { waitForShutdown: noSignal });
    expect((error as Error).message).toContain("tools.toolSearch.mode");
  });

  it("shows help with examples", async () => {
    const { out, error } = await run(["serve", "--help"]);
    expect((error as CommanderError).code).toBe("commander.helpDisplayed");
    expect(out).toContain("toolsift mcp serve --http 0");
  });
});

describe("toolsift mcp serve over stdio (in process)", () => {
  it("writes only protocol messages to stdout, even when a plugin prints with console.log", async () => {
    const plugin = join(root, "plugins", "chatty");
    await mkdir(plugin, { recursive: true });
    await writeFile(
      join(plugin, "toolsift.plugin.json"),
      JSON.stringify({ id: "chatty", name: "Chatty", version: "1.0.0", tools: ["chatty_hello"] }),
    );
    await writeFile(join(plugin, "package.json"), '{ "type": "module" }');
    await writeFile(
      join(plugin, "index.js"),
      `console.log("CHATTY_AT_LOAD");
export function register(api) {
  api.registerTool({
    name: "chatty_hello",
    description: "Say hello.",
    parameters: { type: "object", properties: {} },
    async execute() { console.log("CHATTY_IN_CALL"); return { content: [{ type: "text", text: "HELLO" }] }; },
  });
}
`,
    );
    const config = await writeConfig({ plugins: { load: { paths: [join(root, "plugins")] } } });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: string[] = [];
    const answers = new Map<number, unknown>();
    let onAnswer = () => {};
    createInterface({ input: stdout }).on("line", (line) => {
      lines.push(line);
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === "number") answers.set(message.id, message);
      onAnswer();
    });
    const answer = (id: number) =>
      new Promise<unknown>((resolve) => {
        const check = () => {
          if (answers.has(id)) resolve(answers.get(id));
        };
        onAnswer = check;
        check();
      });
    const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);

    process.env.TOOLSIFT_STATE_DIR = join(root, "state");
    const consoleLog = console.log;
    const errorSpy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const done = run(["serve", "--config", config], { stdin, stdout, waitForShutdown: noSignal });
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      });
      await answer(1);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      const listed = (await answer(2)) as { result: { tools: Array<{ name: string }> } };
      expect(listed.result.tools.map((tool) => tool.name)).toEqual([
        "tool_search",
        "tool_describe",
        "tool_call",
      ]);
      send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "tool_call", arguments: { id: "chatty_hello", args: {} } },
      });
      const called = (await answer(3)) as { result: { content: Array<{ text: string }> } };
      expect(called.result.content[0]?.text).toContain("HELLO");
      stdin.end();
      const { err, error } = await done;
      expect(error).toBeUndefined();
      expect(err).toContain(
        "toolsift mcp serve: 0 of 0 upstream MCP servers ready (0 tools), 1 plugin tools",
      );
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
      expect(lines.join("\n")).not.toContain("CHATTY_");
      const printed = errorSpy.mock.calls.map((call) => call.join(" "));
      expect(printed).toEqual(expect.arrayContaining(["CHATTY_AT_LOAD", "CHATTY_IN_CALL"]));
      expect(console.log).toBe(consoleLog);
    } finally {
      errorSpy.mockRestore();
      delete process.env.TOOLSIFT_STATE_DIR;
    }
  });
});
