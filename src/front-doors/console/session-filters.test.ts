import { describe, expect, it } from "vitest";
import { startTestGateway } from "../gateway/gateway.test-support.js";
import { ALL_TEST_KEYS, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { seedFilterSessions } from "../gateway/session-filters.test-support.js";
import { consoleClient } from "./console-client.test-support.js";

// The sessions page's filters over real HTTP, through the gateway's listSessionsFor: by owner key (admin
// only), by the last run's status, and by text inside the conversation, each within the caller's sessions.

type Row = { sessionKey: string; owner?: string | null };

describe("GET /console/api/sessions filters", () => {
  it("by text inside the conversation, by status, and (admin only) by owner key; never past the caller's own", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    await seedFilterSessions(test);

    const alice = consoleClient(test.url);
    await alice.login(TEST_KEYS.alice.token);
    const names = async (query: string) => {
      const answer = await alice.send("GET", `/sessions?${query}`);
      expect(answer.status, query).toBe(200);
      return (answer.body.data as Row[]).map((row) => row.sessionKey).sort();
    };
    expect(await names("contains=LISBON")).toEqual(["trip"]);
    expect(await names("contains=plants&text=chor")).toEqual(["chores"]);
    expect(await names("status=requires_action")).toEqual(["handed"]);
    expect(await names("status=running")).toEqual(["chores", "trip"]);
    expect(await names("status=running&contains=flight")).toEqual(["trip"]);
    expect(await names("status=failed")).toEqual([]);
    const bad = await alice.send("GET", "/sessions?status=exploded");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("status must be one of running");
    const byKey = await alice.send("GET", "/sessions?key=bob");
    expect(byKey.status).toBe(403);
    expect((byKey.body.error as { code: string }).code).toBe("insufficient_scope");

    const ops = consoleClient(test.url);
    await ops.login(TEST_KEYS.ops.token);
    const opsNames = async (query: string) =>
      ((await ops.send("GET", `/sessions?${query}`)).body.data as Row[]).map((row) => row.sessionKey).sort();
    expect(await opsNames("key=bob")).toEqual(["bob.bob-trip"]);
    expect(await opsNames("key=alice&contains=lisbon")).toEqual(["alice.trip"]);
    expect(await opsNames("contains=lisbon")).toEqual(["alice.trip", "bob.bob-trip"]);
    expect(await opsNames("key=nobody")).toEqual([]);
  });
});
