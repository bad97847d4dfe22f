import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAKE_PLUGIN_ID, readLaneStream, writeFakePlugin } from "../src/dev/qa/index.js";
import { isEntryPoint } from "./entry-point.js";
import { CLI_ENTRY, startChild, stopChild } from "./start-child.js";
import { writeResults } from "./write-results.js";

/** The mock's simulated generation time per piece (a word of text, 8 characters of arguments), in ms. */
const PIECE_DELAY_MS = 10;
/** Rounds of every case before measuring (JIT, plugin load, first-use caches). */
const WARM_UP_ROUNDS = 5;
/** Measured runs of every case; the cases take turns, so drift on a shared machine touches all alike. */
const MEASURED_ROUNDS = 50;

/** The plain run's question: the mock answers `mock: <question>`, one text piece per word. */
const PLAIN_INPUT =
  "Please summarise in plain words why a gateway that streams its answer lets the reader start much " +
  "sooner than one that waits for the whole text, and say what the first words cost compared with the " +
  "last ones when the model writes one word at a time";

/** The two runs measured: one that searches, calls the fake plugin's tool and answers; one plain answer. */
const RUNS = [
  {
    run: "tool_search + tool_call + answer",
    input: "tool search qa check target=fake_plugin_tool_17",
    expect: "FAKE_PLUGIN_OK fake_plugin_tool_17",
  },
  {
    run: `plain answer (${`mock: ${PLAIN_INPUT}`.split(/\s+/u).length} words)`,
    input: PLAIN_INPUT,
    expect: "mock: Please summarise",
  },
] as const;

type Api = "responses" | "chat";
type Case = { run: (typeof RUNS)[number]; api: Api; stream: boolean };
type Sample = { firstTextMs: number; wholeMs: number; textDeltas: number };

type Row = {
  run: string;
  api: string;
  mode: "stream" | "whole";
  runs: number;
  /** Time to the first text the client can show: the first delta, or the whole answer. Median / p90. */
  firstTextMedianMs: number;
  firstTextP90Ms: number;
  /** Time to the whole answer: the terminal event (`response.completed` / `[DONE]`), or the body. */
  wholeMedianMs: number;
  wholeP90Ms: number;
  textDeltasMedian: number;
  failures: number;
};

/**
 * Time to first text vs time to the whole answer, streaming and not, on both APIs: a real `toolsift gateway`
 * child (built CLI, the QA fake plugin, default Tool Search) over a `toolsift mock-openai` child paced at
 * `PIECE_DELAY_MS` per piece (`TOOLSIFT_MOCK_PIECE_DELAY_MS`; a whole answer waits as long as its stream),
 * one request at a time, each in a new session. The stream is read frame by frame with the QA lanes' reader.
 */
export async function run(): Promise<Row[]> {
  if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run \`npm run build\` first.`);
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-streaming-"));
  const children: ChildProcess[] = [];
  try {
    const mock = await startChild(["mock-openai", "--port", "0"], {
      ...process.env,
      TOOLSIFT_MOCK_PIECE_DELAY_MS: String(PIECE_DELAY_MS),
    });
    children.push(mock.process);
    const pluginDir = await writeFakePlugin(join(root, "plugins", FAKE_PLUGIN_ID));
    const stateDir = join(root, "state");
    await mkdir(stateDir, { recursive: true });
    const configPath = join(root, "toolsift.json");
    const config = {
      models: { providers: { mock: { api: "openai-responses", baseUrl: mock.url, apiKey: "mock-key" } } },
      agents: { defaults: { model: "mock/mock-tool-planner" } },
      plugins: { load: { paths: [pluginDir] } },
    };
    await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
    const gateway = await startChild(["gateway", "--port", "0", "--config", configPath], {
      ...process.env,
      TOOLSIFT_HOME: root,
      TOOLSIFT_STATE_DIR: stateDir,
      TOOLSIFT_CONFIG: configPath,
    });
    children.push(gateway.process);

    const cases: Case[] = RUNS.flatMap((runCase) =>
      (["responses", "chat"] as const).flatMap((api) =>
        [true, false].map((stream) => ({ run: runCase, api, stream })),
      ),
    );
    const samples = new Map<Case, Sample[]>(cases.map((item) => [item, []]));
    const failures = new Map<Case, number>(cases.map((item) => [item, 0]));
    let session = 0;
    for (let round = 0; round < WARM_UP_ROUNDS + MEASURED_ROUNDS; round += 1) {
      for (const item of cases) {
        session += 1;
        const sample = await measure(gateway.url, item, `bench-stream-${session}`).catch(() => undefined);
        if (round < WARM_UP_ROUNDS) continue;
        if (sample) samples.get(item)?.push(sample);
        else failures.set(item, (failures.get(item) ?? 0) + 1);
      }
    }

    const rows: Row[] = cases.map((item) => {
      const measured = samples.get(item) ?? [];
      return {
        run: item.run.run,
        api: item.api,
        mode: item.stream ? "stream" : "whole",
        runs: measured.length,
        firstTextMedianMs: percentile(
          measured.map((sample) => sample.firstTextMs),
          0.5,
        ),
        firstTextP90Ms: percentile(
          measured.map((sample) => sample.firstTextMs),
          0.9,
        ),
        wholeMedianMs: percentile(
          measured.map((sample) => sample.wholeMs),
          0.5,
        ),
        wholeP90Ms: percentile(
          measured.map((sample) => sample.wholeMs),
          0.9,
        ),
        textDeltasMedian: percentile(
          measured.map((sample) => sample.textDeltas),
          0.5,
        ),
        failures: failures.get(item) ?? 0,
      };
    });
    console.log(
      `mock piece delay ${PIECE_DELAY_MS} ms, ${MEASURED_ROUNDS} runs per row after ${WARM_UP_ROUNDS} warm-up`,
    );
    console.table(rows);
    writeResults("streaming", { pieceDelayMs: PIECE_DELAY_MS, warmUpRounds: WARM_UP_ROUNDS, rows });
    return rows;
  } finally {
    for (const child of children) await stopChild(child);
    await rm(root, { recursive: true, force: true });
  }
}

/** One request; undefined (a failure) unless it answered 200 with the expected text. */
async function measure(url: string, item: Case, sessionKey: string): Promise<Sample | undefined> {
  const { api, stream } = item;
  const input = item.run.input;
  const streamFields = stream
    ? { stream: true, ...(api === "chat" ? { stream_options: { include_usage: true } } : {}) }
    : {};
  const body =
    api === "chat"
      ? { model: "mock-tool-planner", messages: [{ role: "user", content: input }], ...streamFields }
      : { model: "mock-tool-planner", input, ...streamFields };
  const sentAt = Date.now();
  const response = await fetch(`${url}/v1/${api === "chat" ? "chat/completions" : "responses"}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolsift-session": sessionKey },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) {
    await response.arrayBuffer();
    return undefined;
  }
  if (stream) {
    const read = await readLaneStream(response, api);
    const text = read.textDeltas.map((delta) => delta.text).join("");
    const first = read.textDeltas[0]?.receivedAt;
    const last = read.frames.at(-1)?.receivedAt;
    const terminal = api === "chat" ? "[DONE]" : "response.completed";
    if (
      first === undefined ||
      last === undefined ||
      read.terminal !== terminal ||
      !text.includes(item.run.expect)
    )
      return undefined;
    return { firstTextMs: first - sentAt, wholeMs: last - sentAt, textDeltas: read.textDeltas.length };
  }
  const parsed = (await response.json()) as {
    output_text?: string;
    choices?: Array<{ message?: { content?: string | null } }>;
  };
  const doneAt = Date.now();
  const text = (api === "chat" ? parsed.choices?.[0]?.message?.content : parsed.output_text) ?? "";
  if (!text.includes(item.run.expect)) return undefined;
  return { firstTextMs: doneAt - sentAt, wholeMs: doneAt - sentAt, textDeltas: 0 };
}

/** Nearest-rank percentile (`share` 0.5 is the median); NaN for no values. */
function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const ordered = [...values].sort((a, b) => a - b);
  return ordered[Math.min(ordered.length - 1, Math.ceil(share * ordered.length) - 1)] as number;
}

if (isEntryPoint(import.meta.url)) await run();
