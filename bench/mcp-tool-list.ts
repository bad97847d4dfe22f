import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { isEntryPoint } from "./entry-point.js";
import { writeResults } from "./write-results.js";

/** Tools per fixture server (each fixture adds 4 special tools to the generated ones). */
const GENERATED_PER_SERVER = 150;
const FIXTURE = fileURLToPath(new URL("../test/fixtures/mcp/stdio-server.mjs", import.meta.url));
/** The built CLI, run as a user runs it (`npm run build` first). */
const CLI = fileURLToPath(new URL("../dist/front-doors/cli/main.js", import.meta.url));

type Row = {
  client: "upstream servers directly" | "toolsift mcp serve";
  servers: number;
  upstreamTools: number;
  listedTools: number;
  /** UTF-8 bytes of the `tools/list` results the client receives (all servers summed). */
  toolsListBytes: number;
  /** UTF-8 bytes of the `instructions` in the `initialize` results (all servers summed). */
  instructionsBytes: number;
  /** toolsListBytes as a share of the direct figure, in percent. */
  shareOfDirect: number;
};

function fixtureArgs(prefix: string): string[] {
  return [FIXTURE, "--prefix", prefix, "--count", String(GENERATED_PER_SERVER)];
}

async function measure(command: string, args: string[], env: Record<string, string> = {}) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      env: { ...getDefaultEnvironment(), ...env },
      stderr: "ignore",
    }),
  );
  try {
    const result = await client.listTools();
    return {
      tools: result.tools.length,
      bytes: Buffer.byteLength(JSON.stringify(result)),
      instructions: Buffer.byteLength(client.getInstructions() ?? ""),
    };
  } finally {
    await client.close();
  }
}

/**
 * What an MCP client receives for the same 308 upstream tools (two fixture servers): connected to both
 * servers directly, or to `toolsift mcp serve` in front of them. Prints a table and writes
 * `bench/results/mcp-tool-list.json`. Uses the built CLI: run `npm run build` first.
 */
export async function run(): Promise<Row[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first.`);
  const prefixes = ["crm", "ops"];
  const direct = await Promise.all(prefixes.map((prefix) => measure(process.execPath, fixtureArgs(prefix))));
  const dir = mkdtempSync(join(tmpdir(), "toolsift-bench-mcp-"));
  try {
    const config = join(dir, "toolsift.json");
    const servers = Object.fromEntries(
      prefixes.map((prefix) => [prefix, { command: process.execPath, args: fixtureArgs(prefix) }]),
    );
    writeFileSync(config, JSON.stringify({ mcp: { servers } }));
    const served = await measure(process.execPath, [CLI, "mcp", "serve", "--config", config], {
      TOOLSIFT_STATE_DIR: join(dir, "state"),
    });
    const upstreamTools = direct.reduce((sum, server) => sum + server.tools, 0);
    const directBytes = direct.reduce((sum, server) => sum + server.bytes, 0);
    const rows: Row[] = [
      {
        client: "upstream servers directly",
        servers: prefixes.length,
        upstreamTools,
        listedTools: upstreamTools,
        toolsListBytes: directBytes,
        instructionsBytes: direct.reduce((sum, server) => sum + server.instructions, 0),
        shareOfDirect: 100,
      },
      {
        client: "toolsift mcp serve",
        servers: 1,
        upstreamTools,
        listedTools: served.tools,
        toolsListBytes: served.bytes,
        instructionsBytes: served.instructions,
        shareOfDirect: Math.round((served.bytes / directBytes) * 10_000) / 100,
      },
    ];
    console.table(rows);
    writeResults("mcp-tool-list", rows);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await run();
