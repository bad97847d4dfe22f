import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGateway } from "../src/front-doors/gateway/index.js";
import type { Runner } from "../src/runtime/runner/index.js";
import { createFileSessionStore } from "../src/runtime/sessions/index.js";

/** Sessions on disk (`SESSION_LIST_COUNT`, default 96,000: a large deployment's log folder). */
const SESSION_COUNT = Number(process.env.SESSION_LIST_COUNT ?? 96_000);
/** Requests timed per page; the median is reported. */
const ROUNDS = 5;

/** A runner that only names its agents: the session routes never start a run. */
const idleRunner: Runner = {
  run: () => Promise.reject(new Error("no runs in this benchmark")),
  effectiveSurface: () => Promise.reject(new Error("no surface in this benchmark")),
  agentIds: () => ["main"],
  close: async () => {},
};

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * `GET /v1/sessions` over SESSION_COUNT session logs on disk (one header line each, like a new session's):
 * the time and bytes of the first page, and of the page after it.
 */
export async function run(): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-bench-sessions-"));
  try {
    const dir = join(stateDir, "agents", "main", "sessions");
    mkdirSync(dir, { recursive: true });
    for (let index = 0; index < SESSION_COUNT; index += 1) {
      const sessionKey = `session-${index.toString().padStart(6, "0")}`;
      const header = {
        type: "session",
        version: 1,
        agentId: "main",
        sessionKey,
        at: new Date().toISOString(),
      };
      writeFileSync(join(dir, `${sessionKey}.jsonl`), `${JSON.stringify(header)}\n`);
    }
    const sessions = createFileSessionStore(stateDir);
    const gateway = createGateway({ runner: idleRunner, sessions, log: () => {} });
    const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
    const timePage = async (path: string) => {
      const times: number[] = [];
      let bytes = 0;
      let body = "";
      for (let round = 0; round < ROUNDS; round += 1) {
        const started = performance.now();
        const response = await fetch(`${listener.url}${path}`);
        if (!response.ok)
          throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
        body = await response.text();
        times.push(performance.now() - started);
        bytes = Buffer.byteLength(body);
      }
      return { ms: median(times), bytes, body };
    };
    const first = await timePage("/v1/sessions");
    console.log(`${SESSION_COUNT} sessions: first page ${first.ms.toFixed(0)} ms, ${first.bytes} bytes`);
    const lastId = (JSON.parse(first.body) as { last_id?: string | null }).last_id;
    if (typeof lastId === "string") {
      const next = await timePage(`/v1/sessions?after=${encodeURIComponent(lastId)}`);
      console.log(`${SESSION_COUNT} sessions: second page ${next.ms.toFixed(0)} ms, ${next.bytes} bytes`);
    }
    await listener.close();
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}
