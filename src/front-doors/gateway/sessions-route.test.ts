import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../runtime/sessions/index.js";
import { errorOf, startTestGateway } from "./gateway.test-support.js";

type Page = {
  object: string;
  data: Array<{
    object: string;
    id: string;
    agentId: string;
    sessionKey: string;
    createdAt: string;
    updatedAt: string;
    bytes: number;
  }>;
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
};

const event: SessionEvent = { type: "user-input", at: "2026-01-01T00:00:00.000Z", items: [] };

describe("GET /v1/sessions pages as OpenAI's lists do", () => {
  it("answers 20 by default, newest first, with first_id, last_id and has_more", async () => {
    const test = await startTestGateway();
    for (let index = 0; index < 25; index += 1) await test.sessions.append("main", `s${index}`, event);
    const page = (await (await test.get("/v1/sessions")).json()) as Page;
    expect(page.object).toBe("list");
    expect(page.data).toHaveLength(20);
    expect(page.has_more).toBe(true);
    expect(page.first_id).toBe(page.data[0]?.id);
    expect(page.last_id).toBe(page.data[19]?.id);
    expect(page.data[0]).toMatchObject({ object: "session", agentId: "main", bytes: expect.any(Number) });
    expect(page.data[0]?.id).toBe(`main/${page.data[0]?.sessionKey}`);
    const created = page.data.map((session) => session.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const rest = (await (await test.get(`/v1/sessions?after=${page.last_id}&limit=100`)).json()) as Page;
    expect(rest.data).toHaveLength(5);
    expect(rest.has_more).toBe(false);
    const all = [...page.data, ...rest.data].map((session) => session.id);
    expect(new Set(all).size).toBe(25);
  });

  it("pages with no duplicate and no gap while new sessions are added, filtered by ?agent", async () => {
    const test = await startTestGateway();
    const existing: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const agentId = index % 4 === 0 ? "helper" : "main";
      await test.sessions.append(agentId, `s${index}`, event);
      if (agentId === "main") existing.push(`main/s${index}`);
    }
    const seen: string[] = [];
    let after: string | null = null;
    for (let round = 0; round < 20; round += 1) {
      const query: string = `/v1/sessions?agent=main&limit=2${after === null ? "" : `&after=${after}`}`;
      const page = (await (await test.get(query)).json()) as Page;
      expect(page.data.every((session) => session.agentId === "main")).toBe(true);
      seen.push(...page.data.map((session) => session.id));
      if (!page.has_more) break;
      after = page.last_id;
      await test.sessions.append("main", `late${round}`, event);
      await test.sessions.append("helper", `late${round}`, event);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...existing].sort());
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=-1", "limit"],
    ["limit=2.5", "limit"],
    ["limit=", "limit"],
    ["after=nope", "after"],
    ["after=main%2F..%2Fx", "after"],
    ["after=main%2Fnever-seen", "after"],
  ])("%s is a 400 naming %s", async (query, param) => {
    const test = await startTestGateway();
    await test.sessions.append("main", "one", event);
    const response = await test.get(`/v1/sessions?${query}`);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.param).toBe(param);
    expect(error.type).toBe("invalid_request_error");
  });
});
