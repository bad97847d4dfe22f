// The two agent CLIs as the lanes drive them: one non-interactive conversation per call, in its own temp
// HOME / CODEX_HOME, with the agent's shell tool allowed so it runs client tools without asking.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  AGENT_RUN_TIMEOUT_MS,
  CLAUDE_BIN,
  CLI_ENTRY,
  CODEX_BIN,
  type ProcessRun,
  runProcess,
} from "./agents.test-support.js";

/** One finished conversation: the agent's final answer and the process run behind it. */
export type AgentConversation = { finalText: string; run: ProcessRun };

/** Where a conversation's model is, and what else the agent gets. */
export type ConversationOptions = {
  /** The model endpoint's origin, without `/v1` (the gateway, or the mock in the MCP lanes). */
  origin: string;
  prompt: string;
  /** A temp directory of this conversation (HOME / CODEX_HOME, the working directory, outputs). */
  dir: string;
  /** How to start `toolsift mcp serve`, configured as the agent's MCP server `toolsift`. */
  mcpServe?: McpServeCommand;
};

/** The command an agent runs to start `toolsift mcp serve` (stdio), with extra environment. */
export type McpServeCommand = { command: string; args: readonly string[]; env?: Record<string, string> };

/** `toolsift mcp serve --config <file>` from the built CLI, as the lanes run it. */
export function builtMcpServe(configPath: string, env: Record<string, string>): McpServeCommand {
  return { command: process.execPath, args: [CLI_ENTRY, "mcp", "serve", "--config", configPath], env };
}

/** An agent CLI the lanes drive. */
export interface AgentCli {
  name: string;
  bin: string;
  /** The agent's own shell tool (a client tool of the gateway's run). */
  shellTool: string;
  /** How the agent names the three controls of its MCP server `toolsift`, as recorded by the mock. */
  mcpControlNames: readonly string[];
  converse(options: ConversationOptions): Promise<AgentConversation>;
}

const CLAUDE_MCP_CONTROLS = ["tool_search", "tool_describe", "tool_call"].map(
  (name) => `mcp__toolsift__${name}`,
);

/** Claude Code 2.x: `claude -p … --output-format json`, Bash (and the MCP controls) allowed. */
export const claudeCode: AgentCli = {
  name: "Claude Code",
  bin: CLAUDE_BIN,
  shellTool: "Bash",
  mcpControlNames: CLAUDE_MCP_CONTROLS,
  async converse(options) {
    const home = join(options.dir, "home");
    const work = join(options.dir, "work");
    await mkdir(home, { recursive: true });
    await mkdir(work, { recursive: true });
    let mcpConfigPath: string | undefined;
    if (options.mcpServe !== undefined) {
      mcpConfigPath = join(options.dir, "claude-mcp.json");
      await writeFile(mcpConfigPath, claudeMcpConfig(options.mcpServe));
    }
    const args = claudeArgs(options.prompt, mcpConfigPath);
    const run = await runProcess(CLAUDE_BIN, args, {
      cwd: work,
      timeoutMs: AGENT_RUN_TIMEOUT_MS,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...claudeEnv(options.origin) },
    });
    let finalText = "";
    try {
      const result = JSON.parse(run.stdout) as { result?: unknown };
      finalText = typeof result.result === "string" ? result.result : "";
    } catch {
      finalText = "";
    }
    return { finalText, run };
  },
};

/**
 * Claude Code's arguments in the lanes (and the README recipes): print mode, a JSON result, and the tools it
 * may run without asking: its shell tool through the gateway, the three controls with an MCP config.
 */
export function claudeArgs(prompt: string, mcpConfigPath?: string): string[] {
  const args = ["-p", prompt, "--output-format", "json"];
  if (mcpConfigPath === undefined) return [...args, "--allowedTools", "Bash"];
  return [
    ...args,
    "--mcp-config",
    mcpConfigPath,
    "--strict-mcp-config",
    "--allowedTools",
    CLAUDE_MCP_CONTROLS.join(" "),
  ];
}

/** Codex's arguments in the lanes (and the README recipes): one non-interactive turn, its last message to a file. */
export function codexArgs(prompt: string, outputPath: string): string[] {
  return ["exec", "--skip-git-repo-check", "-o", outputPath, prompt];
}

/** The environment Claude Code runs with in the lanes (and the README recipes), besides HOME and PATH. */
export function claudeEnv(origin: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: origin,
    ANTHROPIC_API_KEY: "unused-on-loopback",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // MCP servers connect in the background by default; `-p` would send its one request without them.
    MCP_CONNECTION_NONBLOCKING: "false",
  };
}

/** The Claude Code `--mcp-config` file of the MCP lane (and the README recipe). */
export function claudeMcpConfig(mcpServe: McpServeCommand): string {
  const server = {
    command: mcpServe.command,
    args: mcpServe.args,
    ...(mcpServe.env === undefined || Object.keys(mcpServe.env).length === 0 ? {} : { env: mcpServe.env }),
  };
  return `${JSON.stringify({ mcpServers: { toolsift: server } }, null, 2)}\n`;
}

/** Codex CLI: `codex exec … -o <file>` with a `config.toml` naming the endpoint as provider `toolsift`. */
export const codex: AgentCli = {
  name: "Codex CLI",
  bin: CODEX_BIN,
  shellTool: "exec_command",
  mcpControlNames: ["tool_search", "tool_describe", "tool_call"].map((name) => `mcp__toolsift/${name}`),
  async converse(options) {
    const codexHome = join(options.dir, "codex-home");
    const work = join(options.dir, "work");
    const output = join(options.dir, "codex-last-message.txt");
    await mkdir(codexHome, { recursive: true });
    await mkdir(work, { recursive: true });
    await writeFile(
      join(codexHome, "config.toml"),
      codexConfig({
        baseUrl: `${options.origin}/v1`,
        ...(options.mcpServe === undefined ? {} : { mcpServe: options.mcpServe }),
      }),
    );
    const run = await runProcess(CODEX_BIN, ["exec", "--skip-git-repo-check", "-o", output, options.prompt], {
      cwd: work,
      timeoutMs: AGENT_RUN_TIMEOUT_MS,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: options.dir,
        CODEX_HOME: codexHome,
        TOOLSIFT_API_KEY: "unused-on-loopback",
      },
    });
    let finalText = "";
    try {
      finalText = await readFile(output, "utf8");
    } catch {
      finalText = "";
    }
    return { finalText, run };
  },
};

/** The Codex `config.toml` of the lanes (and the README recipes): the endpoint as provider `toolsift`. */
export function codexConfig(options: { baseUrl: string; mcpServe?: McpServeCommand }): string {
  const lines = [
    `model = "toolsift"`,
    `model_provider = "toolsift"`,
    `approval_policy = "never"`,
    `sandbox_mode = "danger-full-access"`,
    ``,
    `[model_providers.toolsift]`,
    `name = "toolsift"`,
    `base_url = ${JSON.stringify(options.baseUrl)}`,
    `wire_api = "responses"`,
    `env_key = "TOOLSIFT_API_KEY"`,
    `request_max_retries = 0`,
    `stream_max_retries = 0`,
  ];
  const { mcpServe } = options;
  if (mcpServe !== undefined) {
    lines.push(
      ``,
      `[mcp_servers.toolsift]`,
      `command = ${JSON.stringify(mcpServe.command)}`,
      `args = ${JSON.stringify(mcpServe.args).replaceAll('","', '", "')}`,
      // Without it, `codex exec` sends its first request before the server has listed its tools.
      `required = true`,
    );
    const env = Object.entries(mcpServe.env ?? {}).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
    if (env.length > 0) lines.push(`env = { ${env.join(", ")} }`);
  }
  return `${lines.join("\n")}\n`;
}
