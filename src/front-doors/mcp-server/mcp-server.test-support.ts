import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { MCP_SERVE_PROFILE_ID } from "../../runtime/environment/index.js";
import type { McpServerStatus } from "../../runtime/mcp-client/index.js";
import { tempDir, writeEchoPlugin } from "../../runtime/mcp-client/mcp.test-support.js";
import { createFileSessionStore, sessionLogPath } from "../../runtime/sessions/index.js";
import { createMcpFrontend, type McpFrontendOptions } from "./create-mcp-frontend.js";
import { type TestServeOptions, testServeShared } from "./mcp-frontend.test-support.js";

/** No upstream MCP servers: a frontend serving only the local tools it is given. */
export const NO_UPSTREAM: McpFrontendOptions["source"] = {
  tools: () => [],
  status: (): McpServerStatus[] => [],
  onToolsChanged: () => () => {},
};

/** A frontend over a file store in a temp directory, connected in memory to an SDK client. */
export type InMemoryServe = {
  client: Client;
  /** Path of the connection's session log (written once its first call is admitted). */
  logPath: string;
  /** Closes the frontend and removes the temp directory. */
  close(): Promise<void>;
};

/** Starts a frontend with `options` (no upstream servers, a file store in a temp directory) and connects to it. */
export async function serveInMemory(options: Omit<TestServeOptions, "sessions">): Promise<InMemoryServe> {
  const dir = await tempDir("toolsift-mcp-serve-");
  const frontend = createMcpFrontend({
    source: NO_UPSTREAM,
    ...testServeShared({ ...options, sessions: createFileSessionStore(dir.path) }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await frontend.connect(serverSide);
  const client = new Client({ name: "in-memory", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    logPath: sessionLogPath(dir.path, MCP_SERVE_PROFILE_ID, connection.sessionKey),
    async close() {
      await frontend.close();
      await dir.cleanup();
    },
  };
}

/**
 * Writes, under `root`, a config for `toolsift mcp serve` serving one plugin tool (`notes_add`, which echoes
 * its `text`), with `extra` top-level keys; its path.
 */
export async function writeNotesConfig(root: string, extra: Record<string, unknown>): Promise<string> {
  const plugins = join(root, "plugins");
  await writeEchoPlugin(plugins, "notes", ["notes_add"]);
  const config = join(root, "toolsift.json");
  await writeFile(config, JSON.stringify({ plugins: { load: { paths: [plugins] } }, ...extra }));
  return config;
}
