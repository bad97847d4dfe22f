import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./fleet-gateway.test-support.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { NOTIFY_CHANNELS, startPostgresListener } from "./postgres-listener.js";

let cluster: PostgresCluster;
let url: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase("listen");
}, 60_000);

afterAll(async () => {
  await cluster?.destroy();
});

async function notify(channel: string, payload: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_notify($1, $2)", [channel, payload]);
  } finally {
    await client.end();
  }
}

describe("startPostgresListener", () => {
  it("dispatches each channel's payloads to its subscribers until they unsubscribe", async () => {
    const listener = startPostgresListener(url);
    try {
      await listener.whenListening();
      const settled: string[] = [];
      const released: string[] = [];
      const stop = listener.subscribe(NOTIFY_CHANNELS.approvalSettled, (id) => settled.push(id));
      listener.subscribe(NOTIFY_CHANNELS.sessionReleased, (id) => released.push(id));
      listener.subscribe(NOTIFY_CHANNELS.sessionReleased, () => {
        throw new Error("a failing subscriber");
      });
      await notify(NOTIFY_CHANNELS.approvalSettled, "appr_1");
      await notify(NOTIFY_CHANNELS.sessionReleased, "s1");
      await eventually("both notifications", () => settled.length === 1 && released.length === 1);
      expect(settled).toEqual(["appr_1"]);
      expect(released).toEqual(["s1"]);
      stop();
      await notify(NOTIFY_CHANNELS.approvalSettled, "appr_2");
      await notify(NOTIFY_CHANNELS.sessionReleased, "s2");
      await eventually("the second release", () => released.length === 2);
      expect(settled).toEqual(["appr_1"]);
    } finally {
      await listener.close();
    }
  });

  it("reconnects after the server restarts, logs the outage once, and tells onConnected subscribers", async () => {
    const logs: string[] = [];
    // The server trusts every local connection: the password is only there to prove logs never show it.
    const withPassword = url.replace("postgres@", "postgres:s3cret-pw@");
    const listener = startPostgresListener(withPassword, { log: (line) => logs.push(line) });
    try {
      await listener.whenListening();
      let connections = 0;
      listener.onConnected(() => {
        connections += 1;
      });
      const released: string[] = [];
      listener.subscribe(NOTIFY_CHANNELS.sessionReleased, (id) => released.push(id));
      await cluster.stopServer();
      await eventually("the drop noticed", () => !listener.listening);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await cluster.startServer();
      await listener.whenListening();
      expect(connections).toBe(1);
      expect(logs.filter((line) => line.includes("lost its connection"))).toHaveLength(1);
      expect(logs.some((line) => line.includes("listening again"))).toBe(true);
      expect(logs.join("\n")).not.toContain("s3cret-pw");
      expect(logs.join("\n")).toContain("postgres:***@");
      await notify(NOTIFY_CHANNELS.sessionReleased, "after");
      await eventually("a notification after the restart", () => released.includes("after"));
    } finally {
      await listener.close();
    }
  }, 30_000);

  it("holds a shared advisory lock while asked (announced each time it is taken, again after a restart)", async () => {
    const lock = [72_140_399, 7] as const;
    const held = async (): Promise<boolean> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // An exclusive try fails while any other connection holds the lock shared.
        const result = await client.query<{ free: boolean }>(
          "SELECT pg_try_advisory_xact_lock($1, $2) AS free",
          [...lock],
        );
        return result.rows[0]?.free !== true;
      } finally {
        await client.end();
      }
    };
    const listener = startPostgresListener(url, { retryMinMs: 50, retryMaxMs: 200 });
    try {
      await listener.whenListening();
      const announced: string[] = [];
      listener.subscribe(NOTIFY_CHANNELS.sessionWatched, (payload) => announced.push(payload));
      expect(await held()).toBe(false);
      listener.holdShared(lock, true, NOTIFY_CHANNELS.sessionWatched);
      listener.holdShared(lock, true, NOTIFY_CHANNELS.sessionWatched);
      await eventually("the announcement", () => announced.length === 1);
      expect(await held()).toBe(true);

      await cluster.stopServer();
      await eventually("the drop noticed", () => !listener.listening);
      await cluster.startServer();
      await listener.whenListening();
      await eventually("the announcement after the restart", () => announced.length === 2);
      expect(await held()).toBe(true);

      listener.holdShared(lock, false, NOTIFY_CHANNELS.sessionWatched);
      await eventually("the lock given back", async () => !(await held()));
      expect(announced).toEqual(["", ""]);
    } finally {
      await listener.close();
    }
  }, 30_000);

  it("never throws when the database cannot be reached, and close() ends the retries", async () => {
    const logs: string[] = [];
    const listener = startPostgresListener("postgresql://nobody@127.0.0.1:1/none", {
      log: (line) => logs.push(line),
      retryMinMs: 10,
      retryMaxMs: 20,
    });
    await eventually("a logged failure", () => logs.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listener.listening).toBe(false);
    expect(logs).toHaveLength(1);
    await listener.close();
    await listener.whenListening();
    await listener.close();
  });
});
