import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { MAX_STORED_RESPONSE_BODY_BYTES } from "./limits.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { createPostgresResponseStore } from "./postgres-response-store.js";

let cluster: PostgresCluster;
let db: PostgresPool;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  db = openPostgresPool(await cluster.createDatabase("responses"));
  await migrateSchema(db);
});

afterAll(async () => {
  await db?.end();
  await cluster?.destroy();
});

const origin = { agentId: "main", sessionKey: "k1.chat" };
const body = {
  id: "resp_1",
  object: "response",
  output: [{ type: "message", content: [{ text: "héllo" }] }],
};

describe("createPostgresResponseStore", () => {
  it("remembers an origin and a body; lookup and stored answer them, through another pool too", async () => {
    await createPostgresResponseStore(db).remember("resp_1", origin, body);
    const other = openPostgresPool(db.url);
    try {
      const store = createPostgresResponseStore(other);
      expect(await store.lookup("resp_1")).toEqual(origin);
      expect(await store.stored("resp_1")).toEqual(body);
    } finally {
      await other.end();
    }
  });

  it("answers a fresh copy each time", async () => {
    const store = createPostgresResponseStore(db);
    await store.remember("resp_copy", origin, body);
    const first = (await store.stored("resp_copy")) as typeof body;
    first.output = [];
    expect(await store.stored("resp_copy")).toEqual(body);
  });

  it("keeps the origin but no body for store: false (no body given)", async () => {
    const store = createPostgresResponseStore(db);
    await store.remember("resp_nobody", origin);
    expect(await store.lookup("resp_nobody")).toEqual(origin);
    expect(await store.stored("resp_nobody")).toBeUndefined();
  });

  it("remembering an id again replaces its origin and body", async () => {
    const store = createPostgresResponseStore(db);
    await store.remember("resp_again", origin, body);
    await store.remember("resp_again", { agentId: "other", sessionKey: "s" });
    expect(await store.lookup("resp_again")).toEqual({ agentId: "other", sessionKey: "s" });
    expect(await store.stored("resp_again")).toBeUndefined();
  });

  it("keeps the origin but not a body over the bound", async () => {
    const store = createPostgresResponseStore(db);
    const big = { text: "x".repeat(MAX_STORED_RESPONSE_BODY_BYTES) };
    await store.remember("resp_big", origin, big);
    expect(await store.lookup("resp_big")).toEqual(origin);
    expect(await store.stored("resp_big")).toBeUndefined();
    const fits = { text: "y".repeat(MAX_STORED_RESPONSE_BODY_BYTES - 20) };
    await store.remember("resp_fits", origin, fits);
    expect(await store.stored("resp_fits")).toEqual(fits);
  });

  it("answers undefined for unknown ids, a NUL in an id included", async () => {
    const store = createPostgresResponseStore(db);
    expect(await store.lookup("resp_unknown")).toBeUndefined();
    expect(await store.stored("resp_unknown")).toBeUndefined();
    expect(await store.lookup("resp_\u0000x")).toBeUndefined();
    expect(await store.stored("resp_\u0000x")).toBeUndefined();
    const error = await store.remember("resp_\u0000x", origin, body).catch((thrown: unknown) => thrown);
    expect(isToolsiftError(error) && error.code).toBe("INVALID_REQUEST");
  });

  it("rejects with STORAGE_UNAVAILABLE while the database is down, and works again after", async () => {
    const store = createPostgresResponseStore(db);
    await cluster.stopServer();
    try {
      for (const action of [
        () => store.remember("resp_down", origin, body),
        () => store.lookup("resp_1"),
        () => store.stored("resp_1"),
      ]) {
        const error = await action().catch((thrown: unknown) => thrown);
        expect(isToolsiftError(error) && error.code).toBe("STORAGE_UNAVAILABLE");
      }
    } finally {
      await cluster.startServer();
    }
    await store.remember("resp_up", origin, body);
    expect(await store.lookup("resp_up")).toEqual(origin);
    expect(await store.lookup("resp_down")).toBeUndefined();
  });
});
