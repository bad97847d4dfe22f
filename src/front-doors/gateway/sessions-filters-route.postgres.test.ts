import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONTENT_SCAN_SESSIONS, type SessionEvent } from "../../runtime/sessions/index.js";
import {
  createPostgresSessionStore,
  migrateSchema,
  openPostgresPool,
  type PostgresPool,
} from "../../runtime/state-postgres/index.js";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../../runtime/state-postgres/postgres-cluster.test-support.js";
import { createGateway } from "./create-gateway.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import { ALL_TEST_KEYS, authorizationOf } from "./gateway-keys.test-support.js";
import type { GatewayListener } from "./types.js";

// GET /v1/sessions filters over a PostgreSQL session store (a fleet's): the store pages by SQL and applies
// the key's ownership before its per-request bound, so the filters, the owner check and the bound's
// has_more / last_id are checked here as over the file store.

type Page = { data: Array<{ sessionKey: string }>; last_id: string | null; has_more: boolean };

const AT = "2026-01-01T00:00:00.000Z";
const said = (text: string): SessionEvent =>
  ({
    type: "user-input",
    at: AT,
    runId: "r1",
    items: [{ type: "message", role: "user", text }],
  }) as SessionEvent;
const finished = (status: "completed" | "failed"): SessionEvent =>
  ({ type: "run-summary", at: AT, runId: "r1", status, turns: 1, durationMs: 5 }) as SessionEvent;

let cluster: PostgresCluster;
let pool: PostgresPool;
let listener: GatewayListener;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  pool = openPostgresPool(await cluster.createDatabase("session_filters"));
  await migrateSchema(pool);
  const sessions = createPostgresSessionStore(pool);
  const gateway = createGateway({
    runner: new FakeRunner(sessions),
    sessions,
    authKeys: ALL_TEST_KEYS,
    log: () => {},
  });
  listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  const write = async (key: string, events: SessionEvent[]) => {
    for (const event of events) await sessions.append("main", key, event);
  };
  await write("alice.needle", [said("the rare NEEDLE"), finished("failed")]);
  await write("bob.needle", [said("bob's needle too"), finished("completed")]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let index = 0; index < MAX_CONTENT_SCAN_SESSIONS + 5; index += 1) {
    await write(`alice.hay-${String(index).padStart(4, "0")}`, [said("hay"), finished("completed")]);
  }
}, 120_000);

afterAll(async () => {
  await listener?.close();
  await pool?.end();
  await cluster?.destroy();
});

const list = (who: "alice" | "ops", query: string) =>
  fetch(`${listener.url}/v1/sessions?${query}`, { headers: authorizationOf(who) });

describe("GET /v1/sessions filters over PostgreSQL", () => {
  it("status and contains within the key's own sessions; the bound answers has_more and the last_id read", async () => {
    const first = (await (await list("alice", "contains=needle")).json()) as Page;
    expect(first.data).toEqual([]);
    expect(first.has_more).toBe(true);
    expect(first.last_id).toMatch(/^main\/alice\.hay-/u);
    const next = await list("alice", `contains=needle&after=${encodeURIComponent(first.last_id ?? "")}`);
    expect(next.status).toBe(200);
    const found = (await next.json()) as Page;
    expect(found.data.map((row) => row.sessionKey)).toEqual(["needle"]);
    expect(found.has_more).toBe(false);
    const failed = (await (await list("alice", "status=failed&limit=5")).json()) as Page;
    expect(failed.data).toEqual([]);
    expect(failed.has_more).toBe(true);
    expect((await list("alice", "status=exploded")).status).toBe(400);
    expect((await list("alice", "owner=bob")).status).toBe(403);
  });

  it("an admin's owner filter", async () => {
    const page = (await (await list("ops", "owner=bob&contains=needle")).json()) as Page;
    expect(page.data.map((row) => row.sessionKey)).toEqual(["bob.needle"]);
    expect(page.has_more).toBe(false);
  });
});
