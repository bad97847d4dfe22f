import { describe, expect, it } from "vitest";
import { MAX_CONTENT_SCAN_SESSIONS, type SessionEvent } from "../../runtime/sessions/index.js";
import { startTestGateway } from "./gateway.test-support.js";
import { ALL_TEST_KEYS, authorizationOf } from "./gateway-keys.test-support.js";
import { MAX_SESSION_FILTER_CHARS } from "./limits.js";
import { seedFilterSessions } from "./session-filters.test-support.js";

// GET /v1/sessions filtered by the last run's status, text inside the conversation and (admin only) the
// owner key, over real HTTP on the file store: the console's filters, with the same meaning and checks.

type Page = {
  data: Array<{ id: string; sessionKey: string; owner?: string | null }>;
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
};
type Failure = { error: { type: string; code: string | null; message: string; param?: string | null } };

const said = (text: string): SessionEvent =>
  ({
    type: "user-input",
    at: "2026-01-01T00:00:00.000Z",
    runId: "r1",
    items: [{ type: "message", role: "user", text }],
  }) as SessionEvent;

describe("GET /v1/sessions filters", () => {
  it("by text inside the conversation, by status, and (admin only) by owner; never past the caller's own", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    await seedFilterSessions(test);

    const list = (who: "alice" | "bob" | "ops", query: string) =>
      test.get(`/v1/sessions?${query}`, authorizationOf(who));
    const names = async (who: "alice" | "bob" | "ops", query: string) => {
      const answer = await list(who, query);
      expect(answer.status, query).toBe(200);
      return ((await answer.json()) as Page).data.map((row) => row.sessionKey).sort();
    };
    expect(await names("alice", "contains=LISBON")).toEqual(["trip"]);
    expect(await names("bob", "contains=lisbon")).toEqual(["bob-trip"]);
    expect(await names("alice", "contains=plants&agent=main")).toEqual(["chores"]);
    expect(await names("alice", "status=requires_action")).toEqual(["handed"]);
    expect(await names("alice", "status=running")).toEqual(["chores", "trip"]);
    expect(await names("alice", "status=running&contains=flight")).toEqual(["trip"]);
    expect(await names("alice", "status=failed")).toEqual([]);
    // Empty values are no filter, as the console's are.
    expect(await names("alice", "status=&contains=")).toEqual(["chores", "handed", "trip"]);

    const bad = await list("alice", "status=exploded");
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as Failure;
    expect(badBody.error).toMatchObject({ type: "invalid_request_error", param: "status" });
    expect(badBody.error.message).toContain("status must be one of running");
    const long = await list("alice", `contains=${"x".repeat(MAX_SESSION_FILTER_CHARS + 1)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as Failure).error).toMatchObject({ param: "contains" });
    expect((await list("alice", `contains=${"x".repeat(MAX_SESSION_FILTER_CHARS)}`)).status).toBe(200);
    const byOwner = await list("alice", "owner=bob");
    expect(byOwner.status).toBe(403);
    expect(((await byOwner.json()) as Failure).error.code).toBe("insufficient_scope");
    // Not even a key's own name as owner: the filter is an admin's.
    expect((await list("alice", "owner=alice")).status).toBe(403);

    expect(await names("ops", "owner=bob")).toEqual(["bob.bob-trip"]);
    expect(await names("ops", "owner=alice&contains=lisbon")).toEqual(["alice.trip"]);
    expect(await names("ops", "contains=lisbon")).toEqual(["alice.trip", "bob.bob-trip"]);
    expect(await names("ops", "owner=nobody")).toEqual([]);
    const owned = (await (await list("ops", "owner=bob")).json()) as Page;
    expect(owned.data[0]?.owner).toBe("bob");
  });

  it(`reads at most ${MAX_CONTENT_SCAN_SESSIONS} sessions per request: has_more and last_id go on from where it stopped`, async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    await test.sessions.append("main", "alice.needle", said("the rare needle"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let index = 0; index < MAX_CONTENT_SCAN_SESSIONS + 5; index += 1) {
      await test.sessions.append("main", `alice.hay-${String(index).padStart(4, "0")}`, said("hay"));
    }
    const first = (await (
      await test.get("/v1/sessions?contains=needle", authorizationOf("alice"))
    ).json()) as Page;
    expect(first.data).toEqual([]);
    expect(first.has_more).toBe(true);
    expect(first.last_id).toMatch(/^main\/alice\.hay-/u);
    const next = await test.get(
      `/v1/sessions?contains=needle&after=${encodeURIComponent(first.last_id ?? "")}`,
      authorizationOf("alice"),
    );
    expect(next.status).toBe(200);
    const found = (await next.json()) as Page;
    expect(found.data.map((row) => row.sessionKey)).toEqual(["needle"]);
    expect(found.has_more).toBe(false);
    // Without a content filter the list is cheap and pages as before.
    const plain = (await (await test.get("/v1/sessions?limit=5", authorizationOf("alice"))).json()) as Page;
    expect(plain.data).toHaveLength(5);
    expect(plain.has_more).toBe(true);
  });
});
