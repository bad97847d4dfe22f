import { appendFileSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { type GatewayProcess, startGatewayProcess } from "../../src/dev/qa/start-gateway-process.js";
import { writePlugin } from "../../src/runtime/plugins/plugins.test-support.js";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../../src/runtime/state-postgres/postgres-cluster.test-support.js";

// A fleet: real `toolsift gateway` processes (the built CLI: `npm run build` first) on one real PostgreSQL
// database (`TOOLSIFT_STATE_URL`), each with a state directory of its own, in front of the mock model.

/** Client keys every gateway of the fleet is configured with (same ids and tokens everywhere). */
export const FLEET_TOKENS = {
  ALICE_TOKEN: "tsk-fleet-alice-5f4e3d2c1b0a99887766554433221100",
  BOB_TOKEN: "tsk-fleet-bob-00112233445566778899aabbccddeeff",
  OPS_TOKEN: "tsk-fleet-ops-99999999888888887777777766666666",
} as const;

/** The plugin's tools: `touch_marker` needs approval; `slow_step` records when it ran. */
function fleetPluginEntry(marker: string, steps: string): string {
  return `import { appendFileSync } from "node:fs";
const parameters = { type: "object", properties: {}, additionalProperties: false };
export function register(api) {
  api.registerTool({ name: "touch_marker", description: "Appends a line to the marker file.", parameters,
    execute: async () => { appendFileSync(${JSON.stringify(marker)}, "ran\\n"); return { content: [{ type: "text", text: "marked" }] }; } });
  api.registerTool({ name: "slow_step", description: "Records its start and end, 400 ms apart.", parameters,
    execute: async () => {
      const start = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 400));
      appendFileSync(${JSON.stringify(steps)}, JSON.stringify({ pid: process.pid, start, end: Date.now() }) + "\\n");
      return { content: [{ type: "text", text: "stepped" }] };
    } });
}
`;
}

/** One fleet for a test file. */
export interface Fleet {
  cluster: PostgresCluster;
  databaseUrl: string;
  mock: MockOpenAI;
  root: string;
  configPath: string;
  gateways: GatewayProcess[];
  /** Starts one more gateway on the same config and database. */
  startGateway(): Promise<GatewayProcess>;
  /** Lines the marker tool wrote (one per run of `touch_marker`). */
  markerRuns(): number;
  /** Every `slow_step` run: the gateway process it ran in, and when. */
  steps(): Array<{ pid: number; start: number; end: number }>;
  /** The environment a gateway or CLI of the fleet runs with. */
  env(name: string): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** Options of startFleet: how many gateways start at once, and config changes. */
export interface FleetOptions {
  gateways: number;
  gateway?: Record<string, unknown>;
  approvalTimeoutMs?: number;
}

/** Starts a cluster, a database, the mock and `options.gateways` gateways at once (they migrate together). */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const cluster = await startPostgresCluster();
  const databaseUrl = await cluster.createDatabase("fleet");
  const root = await mkdtemp(join(tmpdir(), "toolsift-fleet-"));
  const marker = join(root, "marker.txt");
  const steps = join(root, "steps.jsonl");
  appendFileSync(marker, "");
  appendFileSync(steps, "");
  const mock = await startMockOpenAI();
  const pluginDir = join(root, "plugin");
  await writePlugin(pluginDir, {
    manifest: {
      id: "fleet",
      name: "Fleet",
      version: "1.0.0",
      main: "index.js",
      tools: ["touch_marker", "slow_step"],
    },
    files: { "index.js": fleetPluginEntry(marker, steps) },
  });
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    plugins: { load: { paths: [pluginDir] } },
    tools: {
      toolSearch: false,
      approval: { require: ["touch_marker"], timeoutMs: options.approvalTimeoutMs ?? 120_000 },
    },
    gateway: {
      auth: {
        keys: [
          { id: "alice", token: "env:ALICE_TOKEN", scopes: ["runs", "sessions:read", "approvals"] },
          { id: "bob", token: "env:BOB_TOKEN", scopes: ["runs", "sessions:read", "approvals"] },
          { id: "ops", token: "env:OPS_TOKEN", scopes: ["admin"] },
        ],
      },
      ...options.gateway,
    },
    state: { url: "env:TOOLSIFT_STATE_URL" },
  };
  const configPath = join(root, "toolsift.json");
  await writeFile(configPath, JSON.stringify(config));
  let serial = 0;
  const env = (name: string): NodeJS.ProcessEnv => ({
    ...process.env,
    ...FLEET_TOKENS,
    TOOLSIFT_HOME: root,
    TOOLSIFT_CONFIG: configPath,
    TOOLSIFT_STATE_DIR: join(root, `state-${name}`),
    TOOLSIFT_STATE_URL: databaseUrl,
  });
  const gateways: GatewayProcess[] = [];
  const startGateway = async () => {
    serial += 1;
    const name = `g${serial}`;
    await mkdir(join(root, `state-${name}`), { recursive: true });
    const started = await startGatewayProcess({ configPath, env: env(name) });
    gateways.push(started);
    return started;
  };
  try {
    await Promise.all(Array.from({ length: options.gateways }, () => startGateway()));
  } catch (error) {
    await Promise.all(gateways.map((gateway) => gateway.kill()));
    await mock.close();
    await cluster.destroy();
    throw error;
  }
  return {
    cluster,
    databaseUrl,
    mock,
    root,
    configPath,
    gateways,
    startGateway,
    markerRuns: () =>
      readFileSync(marker, "utf8")
        .split("\n")
        .filter((line) => line === "ran").length,
    steps: () =>
      readFileSync(steps, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { pid: number; start: number; end: number }),
    env,
    async close() {
      await Promise.all(gateways.map((gateway) => gateway.kill()));
      await mock.close();
      await cluster.destroy();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Headers of a request as `key` (`alice`, `bob`, `ops`), with a session when given. */
export function as(key: "alice" | "bob" | "ops", session?: string): Record<string, string> {
  const token = { alice: FLEET_TOKENS.ALICE_TOKEN, bob: FLEET_TOKENS.BOB_TOKEN, ops: FLEET_TOKENS.OPS_TOKEN }[
    key
  ];
  return {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    ...(session === undefined ? {} : { "x-toolsift-session": session }),
  };
}

/** POST /v1/responses on `gateway` as `key`; resolves with the status and the JSON body. */
export async function respond(
  gateway: GatewayProcess,
  key: "alice" | "bob" | "ops",
  body: Record<string, unknown>,
  session?: string,
): Promise<{
  status: number;
  body: Record<string, unknown> & { error?: { code?: string; message?: string } };
}> {
  const response = await fetch(`${gateway.url}/v1/responses`, {
    method: "POST",
    headers: as(key, session),
    body: JSON.stringify({ model: "toolsift", ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** GET `path` on `gateway` as `key`. */
export async function read(
  gateway: GatewayProcess,
  key: "alice" | "bob" | "ops",
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gateway.url}${path}`, { headers: as(key) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** POST a decision on approval `id` through the gateway at `url` with `token`, with a note when given. */
export async function decide(
  url: string,
  token: string,
  id: string,
  decision: "allow" | "deny",
  note?: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/v1/approvals/${id}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(note === undefined ? { decision } : { decision, note }),
  });
  return { status: response.status, body: await response.json() };
}
