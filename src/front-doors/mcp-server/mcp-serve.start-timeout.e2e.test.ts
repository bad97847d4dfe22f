import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_CLI, stdioFixture, tempDir } from "../../runtime/mcp-client/mcp.test-support.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("toolsift mcp serve with an upstream that never answers", () => {
  it("gives up on it after its startTimeoutMs, leaves it out of the instructions, and serves the rest", async () => {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
    const dir = await tempDir();
    cleanups.push(dir.cleanup);
    const config = join(dir.path, "toolsift.json");
    await writeFile(
      config,
      JSON.stringify({
        mcp: {
          servers: {
            files: stdioFixture({ prefix: "files", count: 3 }),
            stuck: {
              command: process.execPath,
              args: ["-e", "setInterval(() => {}, 1000)"],
              startTimeoutMs: 400,
            },
          },
        },
      }),
    );
    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, "mcp", "serve", "--config", config],
      env: { ...getDefaultEnvironment(), TOOLSIFT_STATE_DIR: join(dir.path, "state") },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("Upstream MCP servers: files.");
    expect(instructions).not.toContain("stuck");
    expect(stderr).toContain('MCP server "stuck" did not start and list its tools within 400 ms');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("tool_search");
  });
});
