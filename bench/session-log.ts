import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type { SessionEvent, SessionStore } from "../src/runtime/sessions/index.js";
import { isEntryPoint } from "./entry-point.js";
import { writeResults } from "./write-results.js";

/** Runs per measurement, CONCURRENCY sessions at once (each run a new session, as in gateway-throughput). */
const RUNS = 2_000;
const CONCURRENCY = 8;
/** Runs per session in the multi-turn row (each run reads the session's earlier runs first). */
const TURNS_PER_SESSION = 10;
/** Runs before measuring (JIT, first-use caches). */
const WARM_UP_RUNS = 400;
/** Rounds of each tree, interleaved; the median round is reported. */
const ROUNDS = 5;
/** The provider key a run knows as a secret (gateway-throughput's config). */
const PROVIDER_KEY = "mock-key";
const AGENT_ID = "main";

/** What a sessions tree offers the runner: the current one (`redactSessionEvent`) or an older one without it. */
type SessionsModule = {
  createFileSessionStore(stateDir: string): SessionStore;
  collectSecretValues(value: unknown): string[];
  redactKnownValues<T>(value: T, known: Iterable<string>): T;
  redactSecrets(value: unknown): unknown;
  redactSessionEvent?<T extends SessionEvent>(event: T, known: Iterable<string>): T;
};
type Tree = { name: string; sessions: SessionsModule; lineOf: (event: SessionEvent) => string | undefined };

type Row = {
  measured: string;
  tree: string;
  runs: number;
  /** Process CPU (user + system, every thread) per run, median of ROUNDS. */
  cpuUsPerRun: number;
  /** Wall time per run at CONCURRENCY, median of ROUNDS. */
  wallUsPerRun: number;
};

const SEARCH_OUTPUT = JSON.stringify([
  {
    id: "native:fake-plugin:fake_plugin_tool_17",
    source: "native",
    owner: "fake-plugin",
    name: "fake_plugin_tool_17",
    description:
      "Fake plugin tool number 17 records a QA marker in the fake plugin's ledger and returns it. It exists only to make the catalog large enough that sending every schema costs real request bytes. Call it with a marker string when the QA scenario names it as the target.",
    input: "{ marker: string }",
  },
]);
const TARGET_RESULT = 'FAKE_PLUGIN_OK fake_plugin_tool_17 {"marker":"qa"}';
const CALL_OUTPUT = JSON.stringify({
  tool: { id: "native:fake-plugin:fake_plugin_tool_17", name: "fake_plugin_tool_17", source: "native" },
  result: {
    content: [{ type: "text", text: TARGET_RESULT }],
    details: { status: "ok", tool: "fake_plugin_tool_17", input: { marker: "qa" } },
  },
});
const DECLARED_TOOLS = ["tool_search", "tool_describe", "tool_call", "edit", "exec", "read", "write"];

/**
 * One run's session log as the runner writes it in gateway-throughput (the QA fake plugin found by
 * tool_search, called through tool_call, then an answer): read the session, append the header and input
 * (awaited), remember secrets from call arguments and tool outputs, append 3 model requests, 3 answers, 2
 * tool results and the target activity without waiting, then the run summary (awaited, datasynced).
 */
async function oneRun(tree: Tree, store: SessionStore, sessionKey: string, turnGap: () => Promise<void>) {
  const { sessions } = tree;
  const runId = `run_${sessionKey}`;
  const secrets = new Set<string>([PROVIDER_KEY]);
  const pending: Promise<void>[] = [];
  const log = (event: SessionEvent) => {
    const prepared = sessions.redactSessionEvent
      ? sessions.redactSessionEvent(event, secrets)
      : sessions.redactKnownValues(event, secrets);
    const written = store.append(AGENT_ID, sessionKey, prepared);
    pending.push(written.catch(() => {}));
    return written;
  };
  const stamp = () => ({ at: new Date().toISOString(), runId });
  const previous = await store.read(AGENT_ID, sessionKey);
  const input: SessionEvent = {
    ...stamp(),
    type: "user-input",
    items: [{ type: "message", role: "user", text: "tool search qa check target=fake_plugin_tool_17" }],
  };
  const header: SessionEvent = { type: "session", version: 1, agentId: AGENT_ID, sessionKey, at: input.at };
  await Promise.all([previous.length === 0 ? log(header) : undefined, log(input)]);
  sessions.redactSecrets(sessions.redactKnownValues(input, secrets));
  const turn = (index: number, output: Extract<SessionEvent, { type: "assistant-output" }>["items"]) => {
    for (const item of output)
      if (item.type === "function_call")
        for (const value of sessions.collectSecretValues(item.arguments)) secrets.add(value);
    void log({
      ...stamp(),
      type: "model-request",
      provider: "mock",
      model: "mock-tool-planner",
      declaredTools: DECLARED_TOOLS,
      declaredToolCount: DECLARED_TOOLS.length,
      systemPromptChars: 11_585,
      requestBytes: 16_875 + index * 600,
      usage: { inputTokens: 4_219 + index * 150, outputTokens: 13 },
    });
    void log({ ...stamp(), type: "assistant-output", items: output });
  };
  const toolResult = (callId: string, name: string, output: string) => {
    for (const value of sessions.collectSecretValues(output)) secrets.add(value);
    void log({ ...stamp(), type: "tool-result", callId, name, isError: false, output });
  };
  turn(0, [
    {
      type: "function_call",
      callId: `${runId}_1`,
      name: "tool_search",
      arguments: '{"query":"fake_plugin_tool_17","limit":1}',
    },
  ]);
  await turnGap();
  toolResult(`${runId}_1`, "tool_search", SEARCH_OUTPUT);
  await turnGap();
  turn(1, [
    {
      type: "function_call",
      callId: `${runId}_2`,
      name: "tool_call",
      arguments: '{"id":"native:fake-plugin:fake_plugin_tool_17","args":{"marker":"qa"}}',
    },
  ]);
  await turnGap();
  void log({
    ...stamp(),
    type: "target-activity",
    parentCallId: `${runId}_2`,
    toolId: "native:fake-plugin:fake_plugin_tool_17",
    name: "fake_plugin_tool_17",
    source: "native",
    arguments: { marker: "qa" },
    result: TARGET_RESULT,
    isError: false,
  });
  await turnGap();
  toolResult(`${runId}_2`, "tool_call", CALL_OUTPUT);
  await turnGap();
  turn(2, [{ type: "message", role: "assistant", text: `Done. ${TARGET_RESULT}` }]);
  await Promise.allSettled(pending);
  await log({
    ...stamp(),
    type: "run-summary",
    status: "completed",
    turns: 3,
    durationMs: 101,
    telemetry: {
      catalogSize: 40,
      sources: { native: 40, mcp: 0, client: 0 },
      counterScope: "82b205d91bd3552389a889a8",
      searchCount: 1,
      describeCount: 0,
      callCount: 1,
    },
  });
}

/** A store that only redacts and serialises (the file store's line, no I/O): the CPU of redaction alone. */
function lineOnlyStore(tree: Tree): SessionStore {
  return {
    async append(_agentId, _sessionKey, event) {
      if (tree.lineOf(event) === undefined) throw new Error("no line");
    },
    async read() {
      return [];
    },
    async list() {
      return [];
    },
  };
}

async function measure(
  tree: Tree,
  store: SessionStore,
  runs: number,
  prefix: string,
  turnGap: () => Promise<void>,
  turnsPerSession: number,
): Promise<{ cpuUs: number; wallUs: number }> {
  let next = 0;
  // Runs of one session never overlap (the gateway refuses a second run of a busy session).
  const sessions = Math.max(CONCURRENCY, Math.ceil(runs / turnsPerSession));
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < runs) {
        next += 1;
        await oneRun(tree, store, `${prefix}-${next % sessions}`, turnGap);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / runs, wallUs: ((performance.now() - started) * 1000) / runs };
}

async function loadTree(name: string, sessionsDir: string): Promise<Tree> {
  const url = (file: string) => pathToFileURL(join(sessionsDir, file)).href;
  const sessions = (await import(url("index.ts"))) as SessionsModule;
  const secrets = (await import(url("redact-secrets.ts"))) as { redactedJson(value: unknown): string };
  const prepared = sessions.redactSessionEvent
    ? ((await import(url("redact-session-event.ts"))) as {
        takeRedactedLine(event: object): string | undefined;
      })
    : undefined;
  // The line the file store writes: the one remembered by redactSessionEvent, else a walk of its own.
  const lineOf = (event: SessionEvent) => prepared?.takeRedactedLine(event) ?? secrets.redactedJson(event);
  return { name, sessions, lineOf };
}

/** The harness alone: no redaction, no line, no I/O (what the rows above it include besides the session log). */
const HARNESS_ONLY: Tree = {
  name: "none (harness alone)",
  sessions: {
    createFileSessionStore: () => {
      throw new Error("the harness row has no file store");
    },
    collectSecretValues: () => [],
    redactKnownValues: (value) => value,
    redactSecrets: (value) => value,
    redactSessionEvent: (event) => event,
  },
  lineOf: () => "",
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The session log's cost per run, in process: one gateway-throughput run's events through the runner's
 * redaction and (a) a store that only makes the lines, (b) the real file store in a temp dir (new session
 * per run, CONCURRENCY at once). With `SESSION_LOG_BASELINE=<path to another tree's src/sessions>` the same
 * runs go through that tree too, interleaved round by round, for a side-by-side figure.
 */
export async function run(): Promise<Row[]> {
  const trees = [await loadTree("current", new URL("../src/runtime/sessions/", import.meta.url).pathname)];
  const baseline = process.env.SESSION_LOG_BASELINE;
  if (baseline) trees.unshift(await loadTree("baseline", resolve(baseline)));
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-session-log-"));
  const cases = [
    { measured: "redaction + line (no I/O)", files: false, turns: 1 },
    { measured: "session log (file store)", files: true, turns: 1 },
    { measured: `session log, ${TURNS_PER_SESSION} turns a session`, files: true, turns: TURNS_PER_SESSION },
  ];
  const samples = new Map<string, { cpu: number[]; wall: number[] }>();
  const gap = () => new Promise<void>((resolve) => setImmediate(resolve));
  try {
    let prefix = 0;
    const storeFor = (tree: Tree, files: boolean) => {
      prefix += 1;
      return files
        ? tree.sessions.createFileSessionStore(join(root, `${tree.name}-${prefix}`))
        : lineOnlyStore(tree);
    };
    for (const tree of trees)
      for (const { files, turns } of cases)
        await measure(tree, storeFor(tree, files), WARM_UP_RUNS, "warm", gap, turns);
    await measure(HARNESS_ONLY, lineOnlyStore(HARNESS_ONLY), WARM_UP_RUNS, "warm", gap, 1);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const { measured, files, turns } of cases) {
        // Every other round in reverse order, so neither tree always runs right after the other.
        const ordered = round % 2 === 0 ? trees : [...trees].reverse();
        for (const tree of files ? ordered : [HARNESS_ONLY, ...ordered]) {
          const result = await measure(tree, storeFor(tree, files), RUNS, `r${round}`, gap, turns);
          const key = `${measured}\u0000${tree.name}`;
          const entry = samples.get(key) ?? { cpu: [], wall: [] };
          entry.cpu.push(result.cpuUs);
          entry.wall.push(result.wallUs);
          samples.set(key, entry);
        }
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const rows: Row[] = [...samples].map(([key, entry]) => {
    const [measured = "", tree = ""] = key.split("\u0000");
    return {
      measured,
      tree,
      runs: RUNS,
      cpuUsPerRun: Math.round(median(entry.cpu)),
      wallUsPerRun: Math.round(median(entry.wall)),
    };
  });
  console.table(rows);
  if (!baseline) writeResults("session-log", rows);
  return rows;
}

if (isEntryPoint(import.meta.url)) await run();
