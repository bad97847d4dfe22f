import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ToolsiftError } from "../../shared/errors/index.js";

/** How long a gateway child process may take to print its address. */
const GATEWAY_START_TIMEOUT_MS = 20_000;

/** A gateway running as a real child process. */
export interface GatewayProcess {
  url: string;
  /** Everything the process wrote to stderr so far (its log). */
  stderr(): string;
  /** Sends SIGTERM and waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the process with SIGKILL (no drain, no flush) and waits until it is gone. */
  kill(): Promise<void>;
}

/** The built CLI: the QA scenario drives the real `toolsift gateway` command, never an in-process server. */
export const CLI_ENTRY = fileURLToPath(new URL("../../../dist/front-doors/cli/main.js", import.meta.url));

/** The built fake MCP server of the MCP lane, and the server name the lane's config gives it. */
export const FAKE_MCP_SERVER_ENTRY = fileURLToPath(
  new URL("../../../dist/dev/qa/fake-mcp-server.js", import.meta.url),
);
export const FAKE_MCP_SERVER_NAME = "fake-mcp";

/** Starts `toolsift gateway --port 0 --config <file>` and waits for the address it prints. */
export function startGatewayProcess(options: {
  configPath: string;
  env: NodeJS.ProcessEnv;
}): Promise<GatewayProcess> {
  const child = spawn(
    process.execPath,
    [CLI_ENTRY, "gateway", "--port", "0", "--config", options.configPath],
    {
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new ToolsiftError(
          "INTERNAL",
          `The gateway did not start within ${GATEWAY_START_TIMEOUT_MS} ms: ${stderr}`,
        ),
      );
    }, GATEWAY_START_TIMEOUT_MS);
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1].replace(/\/$/, ""),
          stderr: () => stderr,
          stop: () => stopChild(child, exited),
          kill: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
            await exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new ToolsiftError(
          "INTERNAL",
          `The gateway exited with code ${code} before listening: ${stderr.trim()}`,
        ),
      );
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode === null) child.kill("SIGTERM");
  return exited;
}
