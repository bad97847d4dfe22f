import { stat } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { McpServerStatus } from "../../runtime/mcp-client/index.js";
import { tempDir } from "../../runtime/mcp-client/mcp.test-support.js";
import { MAX_LOGGED_OUTPUT_CHARS } from "../../runtime/run-surface/index.js";
import { createFileSessionStore, sessionLogPath } from "../../runtime/sessions/index.js";
import { createMcpFrontend, type McpFrontend } from "./create-mcp-frontend.js";
import { MCP_AGENT_ID } from "./limits.js";
import { testServeShared } from "./mcp-frontend.test-support.js";

// How much one busy MCP connection adds to its session log (the real file store, in a temp directory), with
// a tool that answers 100 KB and arguments of 60 KB per call: every call is bounded, and past
// `maxSessionLogBytes` only each call's metadata is written.

const BIG_OUTPUT = "o".repeat(100_000);
const BIG_ARGUMENT = "a".repeat(60_000);
const CAP = 256 * 1024;
/** A call's lines with bodies: output and arguments cut to MAX_LOGGED_OUTPUT_CHARS, target result 4,000. */
const MOST_PER_CALL = 2 * MAX_LOGGED_OUTPUT_CHARS + 4_000 + 3_000;
/** A call's lines without bodies: names, ids, status, timing, the connection's counters. */
const MOST_PER_CALL_PAST_CAP = 2_000;

const chatty: ToolDefinition = {
  name: "chatty_report",
  description: "Writes a long report.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  origin: { kind: "plugin", owner: "chatty" },
  execute: async () => ({ content: [{ type: "text", text: BIG_OUTPUT }] }),
};

const source = {
  tools: () => [],
  status: (): McpServerStatus[] => [],
  onToolsChanged: () => () => {},
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start() {
  const dir = await tempDir("toolsift-mcp-growth-");
  cleanups.push(dir.cleanup);
  const lines: string[] = [];
  const frontend: McpFrontend = createMcpFrontend({
    source,
    ...testServeShared({
      tools: [chatty],
      sessions: createFileSessionStore(dir.path),
      maxSessionLogBytes: CAP,
      log: (line) => lines.push(line),
    }),
  });
  cleanups.push(() => frontend.close());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await frontend.connect(serverSide);
  const client = new Client({ name: "growth", version: "1.0.0" });
  await client.connect(clientSide);
  const path = sessionLogPath(dir.path, MCP_AGENT_ID, connection.sessionKey);
  const size = async () => (await stat(path).catch(() => ({ size: 0 }))).size;
  const call = async () => {
    const result = (await client.callTool({
      name: "tool_call",
      arguments: { id: "chatty_report", args: { text: BIG_ARGUMENT } },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.type === "text" ? result.content[0].text.length : 0).toBeGreaterThan(100_000);
  };
  return { call, size, lines };
}

describe("the session log of a busy MCP connection", () => {
  it("bounds every call's lines, and past maxSessionLogBytes keeps only call metadata", async () => {
    const { call, size, lines } = await start();
    // Under the cap: each call writes its output and arguments, cut to the gateway's bound.
    let before = await size();
    while (before < CAP) {
      await call();
      const after = await size();
      expect(after - before).toBeGreaterThan(2 * MAX_LOGGED_OUTPUT_CHARS);
      expect(after - before).toBeLessThanOrEqual(MOST_PER_CALL);
      before = after;
    }
    expect(before).toBeLessThanOrEqual(CAP + MOST_PER_CALL);

    // Past the cap: 100 more calls add only their metadata.
    for (let index = 0; index < 100; index += 1) await call();
    const grown = (await size()) - before;
    expect(grown).toBeLessThanOrEqual(100 * MOST_PER_CALL_PAST_CAP);
    expect(lines.filter((line) => line.includes("mcp.serve.maxSessionLogBytes"))).toHaveLength(1);
  });
});
