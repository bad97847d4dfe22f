import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_CLI, tempDir } from "../../runtime/mcp-client/mcp.test-support.js";

const FILE_BYTES = 10_801;
const sdk = (path: string) =>
  pathToFileURL(join(process.cwd(), "node_modules/@modelcontextprotocol/sdk/dist/esm", path)).href;

/** A real MCP file server written with the SDK: `read_text_file` answers like the reference filesystem server. */
function fileServerSource(): string {
  return `
import { readFileSync } from "node:fs";
import { Server } from ${JSON.stringify(sdk("server/index.js"))};
import { StdioServerTransport } from ${JSON.stringify(sdk("server/stdio.js"))};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(sdk("types.js"))};
const server = new Server({ name: "files", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: "read_text_file",
    description: "Read the complete contents of a file as text.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const text = readFileSync(String(request.params.arguments?.path), "utf8");
  return { content: [{ type: "text", text }], structuredContent: { content: text } };
});
await server.connect(new StdioServerTransport());
`;
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let client: Client;
let file = "";
let fileText = "";

beforeAll(async () => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
  dir = await tempDir();
  file = join(dir.path, "notes.md");
  const line = '- the "search" team shipped v2; p95 fell from 180 ms to 95 ms.\n';
  fileText = line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES);
  await writeFile(file, fileText);
  await writeFile(join(dir.path, "file-server.mjs"), fileServerSource());
  const config = join(dir.path, "toolsift.json");
  await writeFile(
    config,
    JSON.stringify({
      mcp: { servers: { files: { command: process.execPath, args: [join(dir.path, "file-server.mjs")] } } },
    }),
  );
  client = new Client({ name: "payload-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, "mcp", "serve", "--config", config],
      env: { ...getDefaultEnvironment(), TOOLSIFT_STATE_DIR: join(dir.path, "state") },
      stderr: "ignore",
    }),
  );
});

afterAll(async () => {
  await client?.close();
  await dir?.cleanup();
});

describe("a file read through mcp serve", () => {
  it("carries the file once in the text the client reads", async () => {
    const result = (await client.callTool({
      name: "tool_call",
      arguments: { id: "mcp:files:read_text_file", args: { path: file } },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const escaped = JSON.stringify(fileText).slice(1, -1);
    expect(text.split(escaped).length - 1).toBe(1);
    // The envelope and the untrusted-content wrapping add little: far from the 22 KB of the doubled answer.
    expect(text.length).toBeLessThan(escaped.length + 1_000);
  });
});
