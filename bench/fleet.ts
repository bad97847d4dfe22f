import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { FAKE_PLUGIN_ID, writeFakePlugin } from "../src/dev/qa/index.js";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../src/runtime/state-postgres/postgres-cluster.test-support.js";
import { cpuMs, drive as driveAt } from "./drive.js";
import { isEntryPoint } from "./entry-point.js";
import { type Child, CLI_ENTRY, startChild, stopChild } from "./start-child.js";
import { writeResults } from "./write-results.js";

/** Requests in flight at once. */
const CONCURRENCY = 8;
/** How long each gateway is driven (distinct sessions) before its rounds are measured: JIT, heap, pools. */
const WARM_UP_MS = 5_000;
/** Rounds over the stores, in a rotating order: the machine's drift falls on every store; medians reported. */
const ROUNDS = 4;
/** How long each store is driven per round with distinct sessions. */
const DISTINCT_PHASE_MS = 4_000;
/**
 * Runs per round on one session. A fixed count, not a fixed time, and a fresh session each round: the
 * session's history (and so the prompt each run sends) then grows the same on every store.
 */
const ONE_SESSION_RUNS = 100;
/** Approval samples measured per case, after a few unmeasured ones. */
const APPROVAL_SAMPLES = 60;
const APPROVAL_WARM_UP = 5;
/** How often the approval list is polled while waiting for a request to appear. */
const LIST_POLL_MS = 2;

/** What each throughput run asks: the mock calls the fake plugin's tool through tool_search + tool_call. */
const RUN_INPUT = "tool search qa check target=fake_plugin_tool_17";
/** What each approval run asks: the mock calls `timed_marker` directly (tool search is off there). */
const APPROVAL_INPUT = "target=timed_marker";
const TOKEN = "tsk-bench-fleet-0123456789abcdef0123456789abcdef";

type Store = "file" | "postgres" | "postgres-durable";
const STORE_LABEL: Record<Store, string> = {
  file: "file store",
  postgres: "PostgreSQL (fsync=off)",
  "postgres-durable": "PostgreSQL (durable: fsync on)",
};

type ThroughputRow = {
  store: string;
  sessions: "distinct" | "one";
  concurrency: number;
  runs: number;
  seconds: number;
  runsPerSecond: number;
  /** Gateway process utime+stime per run, median of the rounds. */
  gatewayCpuMsPerRun: number;
  gatewayCpuMsPerRound: number[];
  /** PostgreSQL server (postmaster and every backend) utime+stime per run, median of the rounds. */
  databaseCpuMsPerRun?: number;
  databaseCpuMsPerRound?: number[];
  failures: number;
};

type ApprovalRow = {
  case: string;
  samples: number;
  /** From sending the decision to the tool's recorded start inside the run's gateway, ms. */
  decisionToToolP50Ms: number;
  decisionToToolP95Ms: number;
  decisionToToolMaxMs: number;
  /** The decision request's own round trip, ms (median). */
  decisionResponseP50Ms: number;
  failures: number;
};

/**
 * The fleet's cost beside a single gateway, in one run. (1) Throughput: real `toolsift gateway` processes
 * (built CLI) on one config (mock provider child, QA fake plugin): one on the file store, one with
 * TOOLSIFT_STATE_URL at a fresh database of a throwaway PostgreSQL cluster started with fsync=off, and one on
 * a second cluster with PostgreSQL's default durability. Each is driven at concurrency 8 over distinct
 * sessions and then over one session (which goes through the fleet-wide run queue on PostgreSQL, the
 * in-memory queue on the file store), in ROUNDS rounds whose order rotates. CPU is utime+stime from
 * `/proc`: the gateway process's own, and the database server's (postmaster, live backends, and the backends
 * that exited, through the postmaster's cutime/cstime). (2) Approvals: how long from a decision being sent
 * until the approved tool starts, for a run on gateway A decided through gateway B (both PostgreSQL), decided
 * through A itself, and on one gateway with the file store.
 */
export async function run(): Promise<{ throughput: ThroughputRow[]; approvals: ApprovalRow[] }> {
  if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run \`npm run build\` first.`);
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-fleet-"));
  const children: Child[] = [];
  const clusters: PostgresCluster[] = [];
  const started = performance.now();
  try {
    const mock = await startChild(["mock-openai", "--port", "0"], process.env);
    children.push(mock);
    const fast = await startPostgresCluster();
    clusters.push(fast);
    const durable = await startPostgresCluster({ durable: true });
    clusters.push(durable);
    const clusterOf: Record<Exclude<Store, "file">, PostgresCluster> = {
      postgres: fast,
      "postgres-durable": durable,
    };

    const throughput = await measureThroughput(root, mock.url, clusterOf, children);
    const approvals = await measureApprovals(root, mock.url, clusterOf, children);

    console.log(
      "PostgreSQL: throwaway local clusters on this machine. `fsync=off` also sets synchronous_commit=off and " +
        "full_page_writes=off (what the test harness runs); `durable` keeps PostgreSQL's defaults.",
    );
    console.table(throughput.map(printableThroughput));
    console.table(approvals);
    console.log(`fleet bench took ${Math.round((performance.now() - started) / 1000)} s`);
    const results = {
      notes: {
        machine: "one machine: load generator, mock provider, gateways and PostgreSQL share its cores",
        postgres:
          "throwaway local PostgreSQL clusters; 'fsync=off' = fsync, synchronous_commit and full_page_writes off; " +
          "'durable' = PostgreSQL defaults",
        cpu: "utime+stime from /proc; database = postmaster + backends (exited ones through cutime/cstime)",
        approvals:
          "decision sent (load generator clock) to the approved tool's start (performance.timeOrigin + now() in the run's gateway)",
      },
      throughput,
      approvals,
    };
    writeResults("fleet", results);
    return { throughput, approvals };
  } finally {
    for (const child of children) await stopChild(child.process);
    for (const cluster of clusters) await cluster.destroy();
    await rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Throughput

async function measureThroughput(
  root: string,
  mockUrl: string,
  clusterOf: Record<Exclude<Store, "file">, PostgresCluster>,
  children: Child[],
): Promise<ThroughputRow[]> {
  const folder = join(root, "throughput");
  const pluginDir = await writeFakePlugin(join(folder, "plugins", FAKE_PLUGIN_ID));
  const configPath = join(folder, "toolsift.json");
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mockUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    plugins: { load: { paths: [pluginDir] } },
  };
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);

  const stores: Store[] = ["file", "postgres", "postgres-durable"];
  const gateways = new Map<Store, Child>();
  const databasePid = new Map<Store, number>();
  const databaseUrl = new Map<Store, string>();
  const ownChildren: Child[] = [];
  for (const store of stores) {
    const stateDir = join(folder, `state-${store}`);
    await mkdir(stateDir, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TOOLSIFT_HOME: folder,
      TOOLSIFT_STATE_DIR: stateDir,
      TOOLSIFT_CONFIG: configPath,
    };
    // The same config everywhere: only the state URL differs.
    delete env.TOOLSIFT_STATE_URL;
    if (store !== "file") {
      const cluster = clusterOf[store];
      env.TOOLSIFT_STATE_URL = await cluster.createDatabase("bench");
      databaseUrl.set(store, env.TOOLSIFT_STATE_URL);
      databasePid.set(store, await postmasterPid(cluster.adminUrl));
    }
    const gateway = await startChild(["gateway", "--port", "0", "--config", configPath], env);
    children.push(gateway);
    ownChildren.push(gateway);
    gateways.set(store, gateway);
  }

  let serial = 0;
  const oneRun = (gateway: Child, session?: string) => async (): Promise<boolean> => {
    serial += 1;
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-toolsift-session": session ?? `bench-${serial}` },
      body: JSON.stringify({ model: "mock-tool-planner", input: RUN_INPUT }),
    });
    const body = (await response.json()) as { output_text?: string };
    return response.ok && (body.output_text ?? "").includes("FAKE_PLUGIN_OK");
  };
  const phase = async (
    store: Store,
    once: () => Promise<boolean>,
    until: { ms?: number; count?: number },
  ) => {
    const gatewayPid = gateways.get(store)?.process.pid as number;
    const dbPid = databasePid.get(store);
    const gatewayBefore = cpuMs(gatewayPid);
    const dbBefore = dbPid === undefined ? 0 : treeCpuMs(dbPid);
    const result = await driveAt(once, until, CONCURRENCY);
    return {
      ...result,
      gatewayCpuMs: cpuMs(gatewayPid) - gatewayBefore,
      databaseCpuMs: dbPid === undefined ? undefined : treeCpuMs(dbPid) - dbBefore,
    };
  };

  for (const store of stores) {
    const warm = await phase(store, oneRun(gateways.get(store) as Child), { ms: WARM_UP_MS });
    if (warm.done === 0) throw new Error(`no run succeeded on the ${store} gateway during warm-up`);
  }
  type Phase = Awaited<ReturnType<typeof phase>>;
  const rounds = new Map<string, Phase[]>();
  const push = (key: string, value: Phase) => rounds.set(key, [...(rounds.get(key) ?? []), value]);
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = stores.map((_, index) => stores[(index + round) % stores.length] as Store);
    for (const store of order) {
      const gateway = gateways.get(store) as Child;
      push(`${store}/distinct`, await phase(store, oneRun(gateway), { ms: DISTINCT_PHASE_MS }));
      push(
        `${store}/one`,
        await phase(store, oneRun(gateway, `one-${store}-${round}`), { count: ONE_SESSION_RUNS }),
      );
    }
  }
  for (const store of stores) reportProblems(`${store} gateway`, gateways.get(store) as Child);
  for (const [store, url] of databaseUrl) await reportLeftovers(`${store} throughput database`, url);
  for (const child of ownChildren) await stopChild(child.process);

  const rows: ThroughputRow[] = [];
  for (const sessions of ["distinct", "one"] as const) {
    for (const store of stores) {
      const phases = rounds.get(`${store}/${sessions}`) ?? [];
      const runs = phases.reduce((total, item) => total + item.done, 0);
      const seconds = phases.reduce((total, item) => total + item.seconds, 0);
      const perRun = (cpu: number, item: Phase) => cpu / Math.max(1, item.done);
      const gatewayPerRound = phases.map((item) => perRun(item.gatewayCpuMs, item));
      const row: ThroughputRow = {
        store: STORE_LABEL[store],
        sessions,
        concurrency: CONCURRENCY,
        runs,
        seconds: round2(seconds),
        runsPerSecond: round2(median(phases.map((item) => item.done / item.seconds))),
        gatewayCpuMsPerRun: round2(median(gatewayPerRound)),
        gatewayCpuMsPerRound: gatewayPerRound.map(round2),
        failures: phases.reduce((total, item) => total + item.failed, 0),
      };
      if (store !== "file") {
        const databasePerRound = phases.map((item) => perRun(item.databaseCpuMs ?? 0, item));
        row.databaseCpuMsPerRun = round2(median(databasePerRound));
        row.databaseCpuMsPerRound = databasePerRound.map(round2);
      }
      rows.push(row);
    }
  }
  return rows;
}

function printableThroughput(row: ThroughputRow) {
  return {
    store: row.store,
    sessions: row.sessions,
    "runs/s": row.runsPerSecond,
    "gateway CPU ms/run": row.gatewayCpuMsPerRun,
    "database CPU ms/run": row.databaseCpuMsPerRun ?? "-",
    "total CPU ms/run":
      row.databaseCpuMsPerRun === undefined
        ? row.gatewayCpuMsPerRun
        : round2(row.gatewayCpuMsPerRun + row.databaseCpuMsPerRun),
    runs: row.runs,
    failures: row.failures,
  };
}

/** The postmaster's pid: the parent of the backend serving a fresh connection. */
async function postmasterPid(adminUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const backend = Number(result.rows[0]?.pid);
    return Number(statFields(backend)[1]);
  } finally {
    await client.end();
  }
}

/** `/proc/<pid>/stat` fields after the command name: [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU ms of a process and its children: its own utime+stime, that of its children that have exited and been
 * waited for (cutime+cstime), and that of its live children. A child exiting between the two reads may be
 * missed or counted once in each: a tick or two per round.
 */
function treeCpuMs(rootPid: number): number {
  const ticks = (fields: string[], from: number, count: number) =>
    fields.slice(from, from + count).reduce((total, field) => total + Number(field), 0);
  let total = ticks(statFields(rootPid), 11, 4);
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      const fields = statFields(Number(name));
      if (Number(fields[1]) === rootPid) total += ticks(fields, 11, 2);
    } catch {
      // The process exited while /proc was listed.
    }
  }
  return total * 10;
}

// ---------------------------------------------------------------------------------------------------------
// Approvals

/**
 * The plugin's one tool records when it starts, on the gateway's clock (`performance.timeOrigin + now()`:
 * wall-clock based, the same clock as the load generator's on this machine), in a file per process.
 */
function timedPluginEntry(folder: string): string {
  return `import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
export function register(api) {
  api.registerTool({ name: "timed_marker", description: "Records when it ran.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    execute: async () => {
      const at = performance.timeOrigin + performance.now();
      appendFileSync(join(${JSON.stringify(folder)}, "ran-" + process.pid + ".jsonl"), JSON.stringify({ at }) + "\\n");
      return { content: [{ type: "text", text: "marked" }] };
    } });
}
`;
}

/**
 * Decision-to-resume. A run on gateway A asks for approval; the load generator polls `GET /v1/approvals` on
 * the gateway that will decide until the request is listed, then sends `POST /v1/approvals/:id` there and
 * the time until the tool starts on A is measured. Across gateways (decided on B) the run on A learns of the
 * decision from PostgreSQL's NOTIFY, sent in the deciding transaction and delivered on A's LISTEN
 * connection; A also re-reads unsettled requests every APPROVAL_RECHECK_MS (3 s), as a catch-up for lost
 * notifications. A p95 and max far below 3 s shows the notification carries the decision, not the re-read
 * (a re-read would land anywhere in 0–3 s, a median near 1.5 s).
 */
async function measureApprovals(
  root: string,
  mockUrl: string,
  clusterOf: Record<Exclude<Store, "file">, PostgresCluster>,
  children: Child[],
): Promise<ApprovalRow[]> {
  const folder = join(root, "approvals");
  const pluginDir = join(folder, "plugin");
  const marks = join(folder, "marks");
  await mkdir(pluginDir, { recursive: true });
  await mkdir(marks, { recursive: true });
  await writeFile(
    join(pluginDir, "toolsift.plugin.json"),
    JSON.stringify({
      id: "timed",
      name: "Timed",
      version: "1.0.0",
      main: "index.js",
      tools: ["timed_marker"],
    }),
  );
  await writeFile(join(pluginDir, "package.json"), '{ "type": "module" }\n');
  await writeFile(join(pluginDir, "index.js"), timedPluginEntry(marks));
  const configPath = join(folder, "toolsift.json");
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mockUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    plugins: { load: { paths: [pluginDir] } },
    tools: { toolSearch: false, approval: { require: ["timed_marker"], timeoutMs: 60_000 } },
    gateway: {
      auth: {
        keys: [{ id: "bench", token: "env:BENCH_TOKEN", scopes: ["runs", "sessions:read", "approvals"] }],
      },
    },
  };
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);

  let serial = 0;
  const start = async (stateUrl: string | undefined): Promise<Child> => {
    serial += 1;
    const stateDir = join(folder, `state-${serial}`);
    await mkdir(stateDir, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BENCH_TOKEN: TOKEN,
      TOOLSIFT_HOME: folder,
      TOOLSIFT_STATE_DIR: stateDir,
      TOOLSIFT_CONFIG: configPath,
    };
    delete env.TOOLSIFT_STATE_URL;
    if (stateUrl !== undefined) env.TOOLSIFT_STATE_URL = stateUrl;
    const child = await startChild(["gateway", "--port", "0", "--config", configPath], env);
    children.push(child);
    return child;
  };
  const fastUrl = await clusterOf.postgres.createDatabase("approvals");
  const durableUrl = await clusterOf["postgres-durable"].createDatabase("approvals");
  const a = await start(fastUrl);
  const b = await start(fastUrl);
  const durableA = await start(durableUrl);
  const durableB = await start(durableUrl);
  const single = await start(undefined);

  const cases: Array<{ name: string; runOn: Child; decideOn: Child }> = [
    { name: "PostgreSQL (fsync=off): run on A, decided on B", runOn: a, decideOn: b },
    { name: "PostgreSQL (fsync=off): run on A, decided on A", runOn: a, decideOn: a },
    { name: "PostgreSQL (durable): run on A, decided on B", runOn: durableA, decideOn: durableB },
    { name: "file store: one gateway", runOn: single, decideOn: single },
  ];
  const samples = new Map<string, { toTool: number[]; response: number[]; failures: number }>();
  for (const item of cases) samples.set(item.name, { toTool: [], response: [], failures: 0 });
  // Cases interleave sample by sample, so the machine's drift falls on all of them.
  for (let index = 0; index < APPROVAL_WARM_UP + APPROVAL_SAMPLES; index += 1) {
    for (const item of cases) {
      const record = samples.get(item.name) as { toTool: number[]; response: number[]; failures: number };
      try {
        const sample = await approvalSample(item.runOn, item.decideOn, marks, `approve-${serial}-${index}`);
        if (index >= APPROVAL_WARM_UP) {
          record.toTool.push(sample.toTool);
          record.response.push(sample.response);
        }
      } catch (error) {
        record.failures += 1;
        console.warn(`${item.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  for (const [name, child] of Object.entries({ a, b, durableA, durableB, single })) {
    reportProblems(`approval gateway ${name}`, child);
  }
  await reportLeftovers("approvals database (fsync=off)", fastUrl);
  await reportLeftovers("approvals database (durable)", durableUrl);
  return cases.map((item) => {
    const record = samples.get(item.name) as { toTool: number[]; response: number[]; failures: number };
    return {
      case: item.name,
      samples: record.toTool.length,
      decisionToToolP50Ms: round2(quantile(record.toTool, 0.5)),
      decisionToToolP95Ms: round2(quantile(record.toTool, 0.95)),
      decisionToToolMaxMs: round2(Math.max(...record.toTool)),
      decisionResponseP50Ms: round2(quantile(record.response, 0.5)),
      failures: record.failures,
    };
  });
}

const headers = (session?: string): Record<string, string> => ({
  authorization: `Bearer ${TOKEN}`,
  "content-type": "application/json",
  ...(session === undefined ? {} : { "x-toolsift-session": session }),
});

/** One approval: start the run, wait until it is listed, decide, and read when the tool started. */
async function approvalSample(
  runOn: Child,
  decideOn: Child,
  marks: string,
  session: string,
): Promise<{ toTool: number; response: number }> {
  const pid = runOn.process.pid as number;
  const markFile = join(marks, `ran-${pid}.jsonl`);
  const marksBefore = readMarks(markFile).length;
  const running = fetch(`${runOn.url}/v1/responses`, {
    method: "POST",
    headers: headers(session),
    body: JSON.stringify({ model: "toolsift", input: APPROVAL_INPUT }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as { output_text?: string },
  }));
  const id = await waitListed(decideOn, session);
  const sent = performance.timeOrigin + performance.now();
  const decided = await fetch(`${decideOn.url}/v1/approvals/${id}`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ decision: "allow" }),
  });
  const response = performance.timeOrigin + performance.now() - sent;
  await decided.arrayBuffer();
  if (decided.status !== 200) throw new Error(`deciding ${id} answered ${decided.status}`);
  const finished = await running;
  if (finished.status !== 200 || !(finished.body.output_text ?? "").includes("marked")) {
    throw new Error(
      `the approved run answered ${finished.status}: ${JSON.stringify(finished.body).slice(0, 300)}`,
    );
  }
  const after = readMarks(markFile);
  const mark = after[marksBefore];
  if (after.length !== marksBefore + 1 || mark === undefined) {
    throw new Error(`expected one new tool start in ${markFile}, found ${after.length - marksBefore}`);
  }
  return { toTool: mark - sent, response };
}

async function waitListed(gateway: Child, session: string): Promise<string> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    const response = await fetch(`${gateway.url}/v1/approvals`, { headers: headers() });
    const body = (await response.json()) as { approvals?: Array<{ id: string; sessionKey: string }> };
    const found = body.approvals?.find(
      (item) => item.sessionKey === session || item.sessionKey.endsWith(`.${session}`),
    );
    if (found) return found.id;
    await new Promise((resolve) => setTimeout(resolve, LIST_POLL_MS));
  }
  throw new Error(`the approval of session ${session} was not listed on ${gateway.url} within 10 s`);
}

function readMarks(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { at: number }).at);
}

// ---------------------------------------------------------------------------------------------------------

/** Prints the warnings and errors a gateway logged (the tail of its stderr): a bench run should have none. */
function reportProblems(label: string, child: Child): void {
  const lines = child
    .stderr()
    .split("\n")
    .filter((line) => /\b(warn|warning|error|fatal)\b/iu.test(line));
  if (lines.length === 0) return;
  console.warn(`${label} logged ${lines.length} warning or error line(s), the first:`);
  for (const line of lines.slice(0, 5)) console.warn(`  ${line.slice(0, 400)}`);
}

/**
 * Once every run has answered, a database should hold no run tickets and no undecided approvals (a settled
 * run releases its ticket just after answering: a short pause first). Prints what is left, and the
 * database's open connections.
 */
async function reportLeftovers(label: string, url: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    const tickets = await count("SELECT count(*) AS n FROM toolsift_session_runs");
    const undecided = await count("SELECT count(*) AS n FROM toolsift_approvals WHERE decision IS NULL");
    const connections = await count(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    const line = `${label}: ${tickets} run ticket(s), ${undecided} undecided approval(s) left; ${connections} connection(s) open`;
    if (tickets > 0 || undecided > 0) console.warn(`LEFT OVER: ${line}`);
    else console.log(line);
  } finally {
    await client.end();
  }
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile by nearest rank (the median of an even count: the mean of the middle two). */
function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  if (q === 0.5 && sorted.length % 2 === 0) {
    const middle = sorted.length / 2;
    return ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  }
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

if (isEntryPoint(import.meta.url)) await run();
