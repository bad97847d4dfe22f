import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_CLI, tempDir, waitFor } from "../../runtime/mcp-client/mcp.test-support.js";
import { writeNotesConfig } from "./mcp-server.test-support.js";

// A provider key the config reads from the environment: a gateway run redacts it wherever it reappears in
// its session log (run-agent.secrets.test.ts); `mcp serve` redacts it in its own, as the same session log.

/** Shaped like no known key: only its being known gets it redacted. */
const PROVIDER_KEY = `orchard-${randomBytes(8).toString("hex")}`;

describe("toolsift mcp serve: secrets of the config stay out of the session log", () => {
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  let client: Client;
  let stateDir = "";

  beforeAll(async () => {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
    dir = await tempDir();
    stateDir = join(dir.path, "state");
    const config = await writeNotesConfig(dir.path, {
      models: { providers: { x: { api: "openai-responses", apiKey: "env:MCP_SERVE_SECRET_KEY" } } },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, "mcp", "serve", "--config", config],
      env: { ...getDefaultEnvironment(), TOOLSIFT_STATE_DIR: stateDir, MCP_SERVE_SECRET_KEY: PROVIDER_KEY },
      stderr: "pipe",
    });
    client = new Client({ name: "secrets-client", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await dir?.cleanup();
  });

  it("redacts the provider key from the env where a tool's result repeats it; the client still sees it", async () => {
    const called = (await client.callTool({
      name: "tool_call",
      arguments: { id: "notes_add", args: { text: `remember ${PROVIDER_KEY}` } },
    })) as CallToolResult;
    const answer = called.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
    expect(answer).toContain(`ECHO notes_add remember ${PROVIDER_KEY}`);
    const folder = join(stateDir, "agents", "mcp", "sessions");
    const logged = await waitFor(async () => {
      const files = await readdir(folder).catch(() => []);
      const text = files[0] === undefined ? "" : await readFile(join(folder, files[0]), "utf8");
      return text.includes('"run-summary"') ? text : undefined;
    }, "the session log");
    expect(logged).toContain("ECHO notes_add remember [REDACTED]");
    expect(logged).not.toContain(PROVIDER_KEY);
  });
});
