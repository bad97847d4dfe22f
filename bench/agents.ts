/**
 * `npm run bench -- agents`: the real agent CLIs (test/agents) against the mock model, directly and through a
 * real `toolsift gateway`, side by side. One conversation per run: a client tool round trip through the
 * agent's own shell tool (`target=<shell> cmd=echo …`), which both paths can answer. Per path it prints the
 * agent's requests per conversation, what the model saw (declared tools and request bytes of the first and of
 * all model requests, from the mock's `GET /debug/requests`), and the latency the agent saw through a
 * recording pass-through (first byte of its first answer, first text delta of its last). Medians of RUNS.
 * Needs `npm run build` and `npm ci --prefix test/agents`.
 */
import { join } from "node:path";
import { type AgentCli, claudeCode, codex } from "../test/agents/agent-clis.test-support.js";
import {
  agentsMissingReason,
  declaredToolNames,
  mockCursor,
  mockRequests,
  modelExchanges,
  startGateway,
  startMock,
  startRecordingProxy,
  tempDir,
  uniqueMarker,
} from "../test/agents/agents.test-support.js";

/** Conversations per CLI and path (the median is printed). */
const RUNS = 3;

type PathFigures = {
  ok: boolean;
  note: string;
  agentRequests: number;
  modelRequests: number;
  declaredTools: number;
  firstRequestBytes: number;
  modelBytes: number;
  firstByteMs: number;
  finalTextMs: number;
};

type Row = { cli: string; path: "direct" | "gateway" } & PathFigures;

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const cli of [claudeCode, codex]) {
    const missing = agentsMissingReason(cli.bin);
    if (missing !== undefined) {
      console.log(`${cli.name}: skipped (${missing})`);
      continue;
    }
    for (const path of ["direct", "gateway"] as const)
      rows.push({ cli: cli.name, path, ...(await measure(cli, path)) });
  }
  printRows(rows);
  return rows;
}

async function measure(cli: AgentCli, path: "direct" | "gateway"): Promise<PathFigures> {
  const dir = await tempDir("bench-agents");
  const mock = await startMock();
  const gateway = path === "gateway" ? await startGateway(mock, dir.path) : undefined;
  const proxy = await startRecordingProxy(gateway?.url ?? mock.base);
  const samples: PathFigures[] = [];
  try {
    for (let index = 0; index < RUNS; index += 1) {
      const marker = uniqueMarker();
      const after = await mockCursor(mock);
      const before = proxy.exchanges.length;
      const conversation = await cli.converse({
        origin: proxy.url,
        prompt: `Run this command. target=${cli.shellTool} cmd=echo ${marker}`,
        dir: join(dir.path, `run-${index}`),
      });
      const requests = (await mockRequests(mock, after)).filter((request) => request.path.startsWith("/v1/"));
      const exchanges = modelExchanges({ ...proxy, exchanges: proxy.exchanges.slice(before) });
      const ok = conversation.finalText.includes(marker);
      const refusal = exchanges.find((exchange) => exchange.status >= 400);
      samples.push({
        ok,
        note: ok ? "ok" : (refusal?.responseBody.slice(0, 120) ?? conversation.run.stderr.slice(-120)).trim(),
        agentRequests: exchanges.length,
        modelRequests: requests.length,
        declaredTools: declaredToolNames(requests[0]?.body ?? {}).length,
        firstRequestBytes: requests[0]?.bytes ?? 0,
        modelBytes: requests.reduce((sum, request) => sum + request.bytes, 0),
        firstByteMs: exchanges[0]?.firstByteMs ?? Number.NaN,
        finalTextMs: exchanges.at(-1)?.firstTextMs ?? Number.NaN,
      });
    }
  } finally {
    await proxy.close();
    await gateway?.stop();
    await mock.stop();
    await dir.remove();
  }
  const median = (pick: (sample: PathFigures) => number) => {
    const values = samples.map(pick).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)] ?? Number.NaN;
  };
  return {
    ok: samples.every((sample) => sample.ok),
    note: samples.find((sample) => !sample.ok)?.note ?? "ok",
    agentRequests: median((sample) => sample.agentRequests),
    modelRequests: median((sample) => sample.modelRequests),
    declaredTools: median((sample) => sample.declaredTools),
    firstRequestBytes: median((sample) => sample.firstRequestBytes),
    modelBytes: median((sample) => sample.modelBytes),
    firstByteMs: median((sample) => sample.firstByteMs),
    finalTextMs: median((sample) => sample.finalTextMs),
  };
}

function printRows(rows: readonly Row[]): void {
  const header = [
    "cli",
    "path",
    "agent requests",
    "model requests",
    "declared tools",
    "1st request bytes",
    "model bytes (all)",
    "1st answer first byte ms",
    "final answer first text ms",
    "result",
  ];
  const cells = rows.map((row) => [
    row.cli,
    row.path,
    String(row.agentRequests),
    String(row.modelRequests),
    String(row.declaredTools),
    String(row.firstRequestBytes),
    String(row.modelBytes),
    Number.isFinite(row.firstByteMs) ? row.firstByteMs.toFixed(1) : "-",
    Number.isFinite(row.finalTextMs) ? row.finalTextMs.toFixed(1) : "-",
    row.ok ? "ok" : `failed: ${row.note.replaceAll("\n", " ")}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => row[column]?.length ?? 0)),
  );
  for (const line of [header, ...cells])
    console.log(
      line
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}
