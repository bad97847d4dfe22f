import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import type { SessionEvent } from "../sessions/index.js";
import { HEALTH_PROBE_CACHE_MS } from "./limits.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { createPostgresSessionStore } from "./postgres-session-store.js";

function userInput(text: string): SessionEvent {
  return {
    type: "user-input",
    at: "2026-01-01T00:00:00.000Z",
    items: [{ type: "message", role: "user", text }],
  };
}

function textOf(event: SessionEvent | undefined): string | undefined {
  if (event?.type !== "user-input") return undefined;
  const item = event.items[0];
  return item?.type === "message" ? item.text : undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: PostgresCluster;
let db: PostgresPool;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  // A password in the URL, to see it hidden in every message.
  const url = new URL(await cluster.createDatabase("faults"));
  url.password = "hunter2-secret";
  db = openPostgresPool(url.toString());
  await migrateSchema(db);
});

afterAll(async () => {
  await db?.end();
  await cluster?.destroy();
});

describe("createPostgresSessionStore: the database stopped and started again", () => {
  it("refuses appends with STORAGE_UNAVAILABLE, probes not writable, reports once, and recovers without a new store", async () => {
    const reported: string[] = [];
    const store = createPostgresSessionStore(db, { onStorageFault: (line) => reported.push(line) });
    await store.append("main", "s", userInput("before"));
    expect(await store.probeWritable?.()).toEqual({ writable: true });

    await cluster.stopServer();
    try {
      const failures = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          store
            .append("main", index % 2 === 0 ? "s" : `other${index}`, userInput(`lost ${index}`))
            .catch((error: unknown) => error),
        ),
      );
      for (const error of failures) {
        expect(isToolsiftError(error) && error.code).toBe("STORAGE_UNAVAILABLE");
        const message = (error as Error).message;
        expect(message).toContain(`127.0.0.1:${cluster.port}`);
        expect(message).toContain("state.url");
        expect(message).not.toContain("hunter2-secret");
      }
      await pause(HEALTH_PROBE_CACHE_MS);
      const status = await store.probeWritable?.();
      expect(status?.writable).toBe(false);
      const reason = status?.writable === false ? status.reason : "";
      expect(reason).toContain(`127.0.0.1:${cluster.port}`);
      expect(reason).toContain("Check that PostgreSQL is running");
      expect(reason).not.toContain("hunter2-secret");
      const readError = await store.read("main", "s").catch((error: unknown) => error);
      expect(isToolsiftError(readError) && readError.code).toBe("STORAGE_UNAVAILABLE");
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatch(/^session storage unavailable: /u);
      expect(reported[0]).not.toContain("hunter2-secret");
    } finally {
      await cluster.startServer();
    }

    await store.append("main", "s", userInput("after"));
    await store.append("main", "s", userInput("after again"));
    expect(reported).toHaveLength(2);
    expect(reported[1]).toContain("available again");
    expect(reported[1]).not.toContain("hunter2-secret");
    expect(await store.probeWritable?.()).toEqual({ writable: true });
    // Nothing half-written: only the lines whose appends resolved are there.
    expect((await store.read("main", "s")).map(textOf)).toEqual(["before", "after", "after again"]);
    expect((await store.list()).map((session) => session.sessionKey)).toEqual(["s"]);
  });

  it("a probe sees the fault and the recovery (no append in between), each reported once", async () => {
    const reported: string[] = [];
    const store = createPostgresSessionStore(db, { onStorageFault: (line) => reported.push(line) });
    await cluster.stopServer();
    try {
      expect((await store.probeWritable?.())?.writable).toBe(false);
      await pause(HEALTH_PROBE_CACHE_MS);
      expect((await store.probeWritable?.())?.writable).toBe(false);
      expect(reported).toHaveLength(1);
    } finally {
      await cluster.startServer();
    }
    await pause(HEALTH_PROBE_CACHE_MS);
    expect(await store.probeWritable?.()).toEqual({ writable: true });
    expect(reported).toHaveLength(2);
    expect(reported[1]).toContain("available again");
  });

  it("a reporter that throws changes nothing the store answers", async () => {
    const store = createPostgresSessionStore(db, {
      onStorageFault: () => {
        throw new Error("reporter broke");
      },
    });
    await cluster.stopServer();
    try {
      const error = await store.append("main", "t", userInput("x")).catch((thrown: unknown) => thrown);
      expect(isToolsiftError(error) && error.code).toBe("STORAGE_UNAVAILABLE");
    } finally {
      await cluster.startServer();
    }
    await store.append("main", "t", userInput("y"));
    expect((await store.read("main", "t")).map(textOf)).toEqual(["y"]);
  });
});
