import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FAKE_PLUGIN_ID, writeFakePlugin } from "../src/dev/qa/index.js";
import { isEntryPoint } from "./entry-point.js";
import { distFilesRun, functionsCalled, type ScriptCoverage, sourcePathOf } from "./flow-files-count.js";
import { type Child, startChild, stopChild } from "./start-child.js";
import { writeResults } from "./write-results.js";

/** This repository; `FLOW_FILES_ROOT` names another checkout to measure (its `dist/` must be built). */
const REPOSITORY = fileURLToPath(new URL("..", import.meta.url));
/** The preload that turns on V8 coverage in the measured process and writes it out on SIGUSR2. */
const PRELOAD = pathToFileURL(fileURLToPath(new URL("./flow-files-coverage.mjs", import.meta.url))).href;
/** The stdio MCP fixture server `toolsift mcp serve` fronts. */
const FIXTURE = fileURLToPath(new URL("../test/fixtures/mcp/stdio-server.mjs", import.meta.url));
/** Measured flows per process, one after another. */
const REPEATS = 3;
/** Pause after a flow's response before coverage is taken, so work it leaves for later (log writes) counts. */
const SETTLE_MS = 300;
/** The pause before each measured flow: longer than the session store's one-second state directory probe cache. */
const PAUSE_MS = 1_200;
/** The idle window whose calls are the process's own background work (two ticks of a 500 ms interval). */
const IDLE_MS = 1_200;
/** Longest wait for the measured process to write a coverage file. */
const TAKE_TIMEOUT_MS = 15_000;
/** The gateway run: the mock model searches with tool_search, calls the fake plugin's tool, then answers. */
const RUN_INPUT = "tool search qa check target=fake_plugin_tool_17";
const RUN_EXPECT = "FAKE_PLUGIN_OK fake_plugin_tool_17";
/** The `tools/call` through mcp serve: the tool_call control, calling one upstream fixture tool. */
const MCP_TOOL_ID = "mcp:files:files_sync_order";
const MCP_EXPECT = "files_sync_order ok";

type Flow = {
  flow: string;
  /** Files under dist/ with code run during the flow in every repeat (the figure). */
  filesRun: number;
  /** The count of each repeat. */
  repeats: number[];
  /** Those files, as the sources they are built from (`src/…`; the library bundle stays `dist/…`). */
  files: string[];
  /** Files run in some repeats only (expected empty; a figure with these is noisy). */
  varying: string[];
  /** Files with code the process ran while idle (timers); those functions are not counted in a flow. */
  background: string[];
};

type Result = {
  root: string;
  layout: "by layer" | "flat";
  cli: string;
  repeats: number;
  idleMs: number;
  pauseMs: number;
  settleMs: number;
  flows: Flow[];
};

/**
 * How many toolsift files a request's code runs through, with V8 precise coverage in the measured process
 * (the built CLI under `node --import bench/flow-files-coverage.mjs`): (a) one streamed `POST /v1/responses`
 * through `toolsift gateway` over `toolsift mock-openai`, where the model calls tool_search, then the QA fake
 * plugin's tool through tool_call, then answers; (b) one `tools/call` of the tool_call control handled by
 * `toolsift mcp serve` (stdio, driven by the MCP SDK client) in front of the stdio fixture server. In each
 * process: an idle window first (the functions it runs on its own, interval timers, are never counted), one
 * warm-up flow (lazy imports loaded, first-use caches filled), then REPEATS measured flows, each after a
 * pause and a reset; a file counts when any of its functions (or its top level) ran between the reset and
 * the take after the flow. The figure is the files run in every repeat; `varying` lists any others.
 * Prints a table (`--verbose`: the files too) and writes `bench/results/flow-files.json`
 * (`flow-files-<folder>.json` for another checkout).
 */
export async function run(): Promise<Result> {
  const root = resolve(process.env.FLOW_FILES_ROOT ?? REPOSITORY);
  const layered = join(root, "dist/front-doors/cli/main.js");
  const flat = join(root, "dist/cli/main.js");
  const cli = existsSync(layered) ? layered : flat;
  if (!existsSync(cli))
    throw new Error(`${layered} (or ${flat}) is missing: run \`npm run build\` in ${root}.`);
  const scratch = await mkdtemp(join(tmpdir(), "toolsift-bench-flow-files-"));
  try {
    const flows = [await gatewayFlow(root, cli, scratch), await mcpServeFlow(root, cli, scratch)];
    const result: Result = {
      root,
      layout: cli === layered ? "by layer" : "flat",
      cli: cli.slice(root.length + 1),
      repeats: REPEATS,
      idleMs: IDLE_MS,
      pauseMs: PAUSE_MS,
      settleMs: SETTLE_MS,
      flows,
    };
    console.log(
      `${root} (${result.layout} layout): files run per flow, ${REPEATS} repeats after one warm-up`,
    );
    console.table(
      flows.map(({ flow, filesRun, repeats, varying, background }) => ({
        flow,
        filesRun,
        repeats: repeats.join(" "),
        varying: varying.length,
        background: background.length,
      })),
    );
    if (process.argv.includes("--verbose")) {
      for (const flow of flows) {
        console.log(`\n${flow.flow}: ${flow.filesRun} files\n  ${flow.files.join("\n  ")}`);
        if (flow.varying.length > 0)
          console.log(`  run in some repeats only:\n  ${flow.varying.join("\n  ")}`);
        console.log(`  background (not counted):\n  ${flow.background.join("\n  ") || "(none)"}`);
      }
    }
    const sameRoot = resolve(root) === resolve(REPOSITORY);
    writeResults(sameRoot ? "flow-files" : `flow-files-${basename(root)}`, result);
    return result;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One streamed Responses run through the gateway, counted REPEATS times after a warm-up. */
async function gatewayFlow(root: string, cli: string, scratch: string): Promise<Flow> {
  const home = join(scratch, "gateway");
  const coverageDir = join(home, "coverage");
  const stateDir = join(home, "state");
  await mkdir(coverageDir, { recursive: true });
  await mkdir(stateDir, { recursive: true });
  const children: Child[] = [];
  try {
    const mock = await startChild(["mock-openai", "--port", "0"], process.env, { entry: cli });
    children.push(mock);
    const pluginDir = await writeFakePlugin(join(home, "plugins", FAKE_PLUGIN_ID));
    const configPath = join(home, "toolsift.json");
    const config = {
      models: { providers: { mock: { api: "openai-responses", baseUrl: mock.url, apiKey: "mock-key" } } },
      agents: { defaults: { model: "mock/mock-tool-planner" } },
      plugins: { load: { paths: [pluginDir] } },
    };
    await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
    const gateway = await startChild(
      ["gateway", "--port", "0", "--config", configPath],
      {
        ...process.env,
        TOOLSIFT_HOME: home,
        TOOLSIFT_STATE_DIR: stateDir,
        TOOLSIFT_CONFIG: configPath,
        FLOW_FILES_COVERAGE_DIR: coverageDir,
      },
      { nodeArgs: ["--import", PRELOAD], entry: cli },
    );
    children.push(gateway);
    let session = 0;
    const oneRun = async (): Promise<void> => {
      session += 1;
      const response = await fetch(`${gateway.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-toolsift-session": `flow-files-${session}` },
        body: JSON.stringify({ model: "mock-tool-planner", input: RUN_INPUT, stream: true }),
      });
      const body = await response.text();
      if (response.status !== 200 || !body.includes("response.completed") || !body.includes(RUN_EXPECT)) {
        throw new Error(`the streamed run failed (${response.status}): ${body.slice(0, 2_000)}`);
      }
    };
    return await countFlow(
      "streamed POST /v1/responses (tool_search + tool_call + answer)",
      root,
      gateway.process.pid as number,
      coverageDir,
      oneRun,
    );
  } finally {
    for (const child of children) await stopChild(child.process);
  }
}

/** One `tools/call` of tool_call through `toolsift mcp serve`, counted REPEATS times after a warm-up. */
async function mcpServeFlow(root: string, cli: string, scratch: string): Promise<Flow> {
  const home = join(scratch, "mcp");
  const coverageDir = join(home, "coverage");
  await mkdir(coverageDir, { recursive: true });
  const configPath = join(home, "toolsift.json");
  const server = { command: process.execPath, args: [FIXTURE, "--prefix", "files", "--count", "150"] };
  await writeFile(configPath, JSON.stringify({ mcp: { servers: { files: server } } }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", PRELOAD, cli, "mcp", "serve", "--config", configPath],
    env: {
      ...getDefaultEnvironment(),
      TOOLSIFT_HOME: home,
      TOOLSIFT_STATE_DIR: join(home, "state"),
      FLOW_FILES_COVERAGE_DIR: coverageDir,
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const client = new Client({ name: "flow-files-bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    const pid = transport.pid;
    if (pid === null) throw new Error(`toolsift mcp serve did not start: ${stderr}`);
    const oneCall = async (): Promise<void> => {
      const result = (await client.callTool({
        name: "tool_call",
        arguments: { id: MCP_TOOL_ID, args: { id: "o-1" } },
      })) as CallToolResult;
      const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
      if (result.isError || !text.includes(MCP_EXPECT)) {
        throw new Error(`the tools/call failed: ${text.slice(0, 2_000)}\n${stderr}`);
      }
    };
    return await countFlow(
      "mcp serve tools/call (tool_call → upstream stdio tool)",
      root,
      pid,
      coverageDir,
      oneCall,
    );
  } finally {
    await client.close();
  }
}

/**
 * Reset, an idle window (what the process runs on its own), one warm-up flow; then REPEATS times: a pause,
 * reset, flow, settle, take, and count the files run outside the idle window's functions. The pause makes
 * every repeat a flow that arrives a while after the one before (the session store re-probes the state
 * directory after a second without a probe), and the reset after it keeps the pause's own work out.
 */
async function countFlow(
  flow: string,
  root: string,
  pid: number,
  coverageDir: string,
  oneFlow: () => Promise<void>,
): Promise<Flow> {
  let taken = 0;
  const take = async (): Promise<ScriptCoverage[]> => {
    taken += 1;
    return takeCoverage(pid, join(coverageDir, `coverage-${taken}.json`));
  };
  await take();
  await sleep(IDLE_MS);
  const idle = await take();
  const background = functionsCalled(idle);
  await oneFlow();
  const runs: string[][] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    await sleep(PAUSE_MS);
    await take();
    await oneFlow();
    await sleep(SETTLE_MS);
    runs.push(distFilesRun(await take(), root, background));
  }
  const repeats = runs.map((files) => files.length);
  if (repeats.some((count) => count === 0)) throw new Error(`${flow}: a repeat counted no files run.`);
  const everyRepeat = (runs[0] ?? []).filter((file) => runs.every((files) => files.includes(file)));
  const someRepeats = [...new Set(runs.flat())].filter((file) => !everyRepeat.includes(file)).sort();
  return {
    flow,
    filesRun: everyRepeat.length,
    repeats,
    files: everyRepeat.map(sourcePathOf),
    varying: someRepeats.map(sourcePathOf),
    background: distFilesRun(idle, root).map(sourcePathOf),
  };
}

/** Asks the measured process for its coverage (SIGUSR2) and reads the file it writes. */
async function takeCoverage(pid: number, file: string): Promise<ScriptCoverage[]> {
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + TAKE_TIMEOUT_MS;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} wrote no coverage to ${file}`);
    await sleep(20);
  }
  const parsed = JSON.parse(await readFile(file, "utf8")) as ScriptCoverage[] | { error: string };
  if (!Array.isArray(parsed)) throw new Error(`process ${pid} could not take coverage: ${parsed.error}`);
  return parsed;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

if (isEntryPoint(import.meta.url)) await run();
