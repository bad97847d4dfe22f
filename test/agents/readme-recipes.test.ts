// The README's agent recipes are the lanes' own configs and commands: each block marked `<!-- agents: NAME -->`
// equals what the helpers the lanes run produce for the README's addresses and paths.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeArgs, claudeEnv, claudeMcpConfig, codexArgs, codexConfig } from "./agent-clis.test-support.js";
import { REPO_ROOT } from "./agents.test-support.js";

const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const GATEWAY = "http://127.0.0.1:18789";
const MOCK = "http://127.0.0.1:18790";
const MCP_SERVE = {
  command: "npx",
  args: ["toolsift", "mcp", "serve", "--config", "/path/to/toolsift.json5"],
};

/** The fenced block under `<!-- agents: NAME -->`. */
function block(name: string): string {
  const match = new RegExp(`<!-- agents: ${name} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``, "u").exec(readme);
  expect(match, `README keeps its ${name} recipe`).not.toBeNull();
  return match?.[1] ?? "";
}

/** A one-line shell command as words: `KEY=value` assignments, then the program and its arguments. */
function shellWords(line: string): { env: Record<string, string>; program: string; args: string[] } {
  const words = [...line.trim().matchAll(/"([^"]*)"|(\S+)/gu)].map((match) => match[1] ?? match[2] ?? "");
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/u.test(words[0] ?? "")) {
    const [key, ...value] = (words.shift() ?? "").split("=");
    env[key ?? ""] = value.join("=");
  }
  return { env, program: words.shift() ?? "", args: words };
}

describe("README agent recipes", () => {
  it("Codex CLI through toolsift: the lanes' config.toml and command", () => {
    expect(block("codex-gateway")).toBe(codexConfig({ baseUrl: `${GATEWAY}/v1` }));
    const command = shellWords(block("codex-command"));
    expect(command.program).toBe("codex");
    expect(command.env).toEqual({
      CODEX_HOME: "/path/to/codex-home",
      TOOLSIFT_API_KEY: "unused-on-loopback",
    });
    expect(command.args).toEqual(codexArgs(command.args.at(-1) ?? "", "last-message.txt"));
  });

  it("Claude Code through toolsift: the lanes' environment and arguments", () => {
    const command = shellWords(block("claude-gateway"));
    expect(command.program).toBe("claude");
    expect(command.env).toEqual(claudeEnv(GATEWAY));
    expect(command.args).toEqual(claudeArgs(command.args[1] ?? ""));
  });

  it("toolsift as an MCP server for Codex and Claude Code: the lanes' configs", () => {
    expect(block("codex-mcp")).toBe(codexConfig({ baseUrl: `${MOCK}/v1`, mcpServe: MCP_SERVE }));
    expect(block("claude-mcp-config")).toBe(claudeMcpConfig(MCP_SERVE));
    const command = shellWords(block("claude-mcp"));
    expect(command.env).toEqual(claudeEnv(MOCK));
    expect(command.args).toEqual(claudeArgs(command.args[1] ?? "", "claude-mcp.json"));
  });
});
