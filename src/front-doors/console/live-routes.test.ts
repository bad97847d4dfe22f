import { describe, expect, it } from "vitest";
import { createApprovalBroker, type PendingApproval } from "../../runtime/approvals/index.js";
import { startTestGateway, type TestGateway } from "../gateway/gateway.test-support.js";
import { ALL_TEST_KEYS, authorizationOf, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { consoleClient } from "./console-client.test-support.js";
import { CSRF_HEADER } from "./console-paths.js";
import { MAX_LIVE_STREAMS, MAX_LIVE_STREAMS_PER_SESSION } from "./limits.js";
import { openLive } from "./live-client.test-support.js";

// The live streams over real HTTP: the same checks as the reads, NDJSON lines as the store changes, the
// end of a stream when its client goes, and the caps.

/** A signed-in console client that can also open live streams with its cookie and CSRF token. */
async function signedIn(test: TestGateway, token: string) {
  const client = consoleClient(test.url);
  await client.login(token);
  return {
    client,
    open: (path: string, init: { headers?: Record<string, string> } = {}) =>
      openLive(test.url, client, path, init.headers),
  };
}

async function storedKeyOf(test: TestGateway, name: string): Promise<string> {
  const ops = await signedIn(test, TEST_KEYS.ops.token);
  const listed = await ops.client.send("GET", "/sessions");
  const row = (listed.body.data as Array<{ sessionKey: string }>).find((session) =>
    session.sessionKey.endsWith(name),
  );
  if (row === undefined) throw new Error(`no session ${name}`);
  return row.sessionKey;
}

describe("GET /console/api/live/session", () => {
  it("sends the events, then each event appended after it opened; another key's session is 404", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const run = await test.post(
      "/v1/responses",
      { input: "first words" },
      { ...authorizationOf("alice"), "x-toolsift-session": "live-one" },
    );
    expect(run.status).toBe(200);
    const alice = await signedIn(test, TEST_KEYS.alice.token);
    const stream = await alice.open("/session?agent=main&key=live-one");
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(stream.response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const first = await stream.lines?.nextChange();
    if (first?.type !== "events") throw new Error(`expected events, got ${JSON.stringify(first)}`);
    expect(first.from).toBe(0);
    expect(JSON.stringify(first.events)).toContain("first words");
    const shown = first.events.length;

    const stored = await storedKeyOf(test, "live-one");
    await test.sessions.append("main", stored, {
      type: "user-input",
      at: new Date().toISOString(),
      runId: "run_later",
      items: [{ type: "message", role: "user", text: "appended later" }],
    });
    const next = await stream.lines?.nextChange();
    expect(next).toMatchObject({ type: "events", from: shown, events: [{ runId: "run_later" }] });
    expect(JSON.stringify(next)).toContain("appended later");
    stream.abort.abort();

    // `after`: only what the page does not show yet.
    const resumed = await alice.open(`/session?agent=main&key=live-one&after=${shown}`);
    expect(await resumed.lines?.nextChange()).toMatchObject({ type: "events", from: shown });
    resumed.abort.abort();

    const bob = await signedIn(test, TEST_KEYS.bob.token);
    const stolen = await bob.open("/session?agent=main&key=live-one");
    expect(stolen.response.status).toBe(404);
    const reader = await signedIn(test, TEST_KEYS.runner.token);
    expect((await reader.open("/session?agent=main&key=live-one")).response.status).toBe(403);
    expect((await alice.open("/session?agent=main&key=live-one&after=-1")).response.status).toBe(400);
    // Without the CSRF token, or from another site: refused as every read is.
    expect(
      (await alice.open("/session?agent=main&key=live-one", { headers: { [CSRF_HEADER]: "x" } })).response
        .status,
    ).toBe(403);
    expect(
      (await alice.open("/session?agent=main&key=live-one", { headers: { "sec-fetch-site": "cross-site" } }))
        .response.status,
    ).toBe(403);
    const anonymous = await fetch(`${test.url}/console/api/live/session?agent=main&key=live-one`, {
      headers: { "sec-fetch-site": "same-origin", [CSRF_HEADER]: "bootstrap" },
    });
    expect(anonymous.status).toBe(401);
  });

  it("ends when the client goes (its slot is free again); caps the streams per console session", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    await test.post(
      "/v1/responses",
      { input: "hello" },
      { ...authorizationOf("alice"), "x-toolsift-session": "capped" },
    );
    const alice = await signedIn(test, TEST_KEYS.alice.token);
    const open = [];
    for (let index = 0; index < MAX_LIVE_STREAMS_PER_SESSION; index += 1) {
      const stream = await alice.open("/session?agent=main&key=capped");
      expect(stream.response.status).toBe(200);
      await stream.lines?.next();
      open.push(stream);
    }
    const refused = await alice.open("/session?agent=main&key=capped");
    expect(refused.response.status).toBe(429);
    expect(((await refused.response.json()) as { error: { code: string } }).error.code).toBe(
      "too_many_live_streams",
    );
    // Another console session of the same key has its own allowance.
    const otherTab = await signedIn(test, TEST_KEYS.alice.token);
    const own = await otherTab.open("/approvals");
    expect(own.response.status).toBe(200);
    own.abort.abort();

    // The client goes: the server notices at its next wait and frees the slot.
    open[0]?.abort.abort();
    let reopened: Response | undefined;
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const stream = await alice.open("/session?agent=main&key=capped");
      if (stream.response.status === 200) {
        reopened = stream.response;
        stream.abort.abort();
        break;
      }
      await stream.response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reopened?.status).toBe(200);
    for (const stream of open) stream.abort.abort();
  });

  it(`caps the streams of the process at ${MAX_LIVE_STREAMS}, whoever opens them`, async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const open = [];
    // Console sessions of three keys, each holding its own allowance, until the process is full.
    for (const token of [TEST_KEYS.alice.token, TEST_KEYS.bob.token, TEST_KEYS.ops.token]) {
      for (let tab = 0; tab < 8 && open.length < MAX_LIVE_STREAMS; tab += 1) {
        const browser = await signedIn(test, token);
        for (
          let index = 0;
          index < MAX_LIVE_STREAMS_PER_SESSION && open.length < MAX_LIVE_STREAMS;
          index += 1
        ) {
          const stream = await browser.open("/approvals");
          expect(stream.response.status).toBe(200);
          open.push(stream);
        }
      }
    }
    expect(open).toHaveLength(MAX_LIVE_STREAMS);
    const late = await signedIn(test, TEST_KEYS.runner.token);
    const refused = await late.open("/approvals");
    expect(refused.response.status).toBe(429);
    open[0]?.abort.abort();
    let reopened = 0;
    for (let attempt = 0; attempt < 100 && reopened !== 200; attempt += 1) {
      const stream = await late.open("/approvals");
      reopened = stream.response.status;
      if (reopened === 200) stream.abort.abort();
      else await stream.response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(reopened).toBe(200);
    for (const stream of open) stream.abort.abort();
  });

  it("a signed-out console session's stream ends with an end line", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    await test.post(
      "/v1/responses",
      { input: "hello" },
      { ...authorizationOf("alice"), "x-toolsift-session": "signed-out" },
    );
    const alice = await signedIn(test, TEST_KEYS.alice.token);
    const stream = await alice.open("/session?agent=main&key=signed-out");
    expect((await stream.lines?.nextChange())?.type).toBe("events");
    expect((await alice.client.send("POST", "/logout", { body: {} })).status).toBe(200);
    expect(await stream.lines?.nextChange()).toEqual({ type: "end", reason: "signed out" });
    expect(await stream.lines?.next()).toBeUndefined();
  });
});

describe("GET /console/api/live/approvals", () => {
  it("sends the pending list, then again when one is added or decided; per key; needs the scope", async () => {
    const broker = createApprovalBroker({ timeoutMs: 600_000 });
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS, approvals: broker });
    const alice = await signedIn(test, TEST_KEYS.alice.token);
    const stream = await alice.open("/approvals");
    expect(await stream.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });
    const held = test.post(
      "/v1/responses",
      { input: "exec:ls" },
      { ...authorizationOf("alice"), "x-toolsift-session": "live-exec" },
    );
    const added = await stream.lines?.nextChange();
    if (added?.type !== "approvals") throw new Error(`expected approvals, got ${JSON.stringify(added)}`);
    const [approval] = added.approvals as PendingApproval[];
    expect(approval).toMatchObject({ toolName: "exec", sessionKey: "live-exec" });
    // Another key's stream, opened while it waits, does not carry it.
    const bob = await signedIn(test, TEST_KEYS.bob.token);
    const bobStream = await bob.open("/approvals");
    expect(await bobStream.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });
    bobStream.abort.abort();
    expect(await broker.decide(approval?.id ?? "", "deny", "not now")).toBe(true);
    expect(await stream.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });
    expect((await held).status).toBe(200);
    stream.abort.abort();

    const reader = await signedIn(test, TEST_KEYS.reader.token);
    const refused = await reader.open("/approvals");
    expect(refused.response.status).toBe(403);
    broker.close();
  });

  it("without a broker: one line saying so", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const alice = await signedIn(test, TEST_KEYS.alice.token);
    const stream = await alice.open("/approvals");
    expect(await stream.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: false });
    stream.abort.abort();
  });
});
