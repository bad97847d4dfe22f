import { expect } from "vitest";
import type { TestGateway } from "./gateway.test-support.js";
import { authorizationOf } from "./gateway-keys.test-support.js";

/**
 * The sessions the filter tests search: alice's `trip` ("book a flight to Lisbon") and `chores` ("water the
 * plants") left running (FakeRunner runs log no summary), her `handed` waiting on a client tool, and bob's
 * `bob-trip` ("Lisbon for bob too").
 */
export async function seedFilterSessions(test: TestGateway): Promise<void> {
  const run = async (who: "alice" | "bob", session: string, input: string) => {
    const answer = await test.post(
      "/v1/responses",
      { input },
      { ...authorizationOf(who), "x-toolsift-session": session },
    );
    expect(answer.status).toBe(200);
  };
  await run("alice", "trip", "book a flight to Lisbon");
  await run("alice", "chores", "water the plants");
  await run("alice", "handed", "call:paint_fence");
  await run("bob", "bob-trip", "Lisbon for bob too");
}
