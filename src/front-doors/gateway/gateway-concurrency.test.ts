import { describe, expect, it, vi } from "vitest";
import { errorOf, startTestGateway } from "./gateway.test-support.js";

/** Generous bound for waiting on a condition (never a timing assertion). */
const WAIT = { timeout: 10_000, interval: 5 };

describe("run scheduling", () => {
  it("serialises runs of one session: the second starts only after the first ended", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "shared" };
    const first = test.post("/v1/responses", { input: "hold:first" }, headers);
    await test.runner.started("hold:first");
    const second = test.post("/v1/responses", { input: "second" }, headers);
    await vi.waitFor(() => expect(test.gateway.stats()).toMatchObject({ running: 1, queued: 1 }), WAIT);
    expect(test.runner.timeline).toEqual(["start:hold:first"]);

    test.runner.release("hold:first");
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(test.runner.timeline).toEqual([
      "start:hold:first",
      "end:hold:first",
      "start:second",
      "end:second",
    ]);
    expect(test.runner.maxConcurrentPerSession).toBe(1);
    expect(test.gateway.stats()).toEqual({ running: 0, queued: 0, draining: false });
  });

  it("serialises a chat request and a Responses request on the same agent and session", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "mixed" };
    const first = test.post(
      "/v1/chat/completions",
      { messages: [{ role: "user", content: "hold:a" }] },
      headers,
    );
    await test.runner.started("hold:a");
    const second = test.post("/v1/responses", { input: "b" }, headers);
    await vi.waitFor(() => expect(test.gateway.stats().queued).toBe(1), WAIT);
    test.runner.release("hold:a");
    await Promise.all([first, second]);
    expect(test.runner.timeline).toEqual(["start:hold:a", "end:hold:a", "start:b", "end:b"]);
  });

  it("runs different sessions concurrently", async () => {
    const test = await startTestGateway();
    const one = test.post("/v1/responses", { input: "hold:one" }, { "x-toolsift-session": "one" });
    const two = test.post("/v1/responses", { input: "hold:two" }, { "x-toolsift-session": "two" });
    // Both runs are in progress at once: neither is released before both started.
    await Promise.all([test.runner.started("hold:one"), test.runner.started("hold:two")]);
    expect(test.gateway.stats()).toMatchObject({ running: 2, queued: 0 });
    test.runner.release("hold:one");
    test.runner.release("hold:two");
    expect((await one).status).toBe(200);
    expect((await two).status).toBe(200);
    expect(test.runner.maxConcurrent).toBe(2);
    expect(test.runner.maxConcurrentPerSession).toBe(1);
  });

  it("treats the same session key under two agents as two sessions", async () => {
    const test = await startTestGateway();
    const main = test.post("/v1/responses", { input: "hold:main" }, { "x-toolsift-session": "same" });
    const helper = test.post(
      "/v1/responses",
      { input: "hold:helper" },
      { "x-toolsift-session": "same", "x-toolsift-agent": "helper" },
    );
    await Promise.all([test.runner.started("hold:main"), test.runner.started("hold:helper")]);
    test.runner.release("hold:main");
    test.runner.release("hold:helper");
    await Promise.all([main, helper]);
    expect(test.runner.maxConcurrent).toBe(2);
  });

  it("keeps the queue going after a failed run", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "after-failure" };
    const failing = test.post("/v1/responses", { input: "throw" }, headers);
    const next = test.post("/v1/responses", { input: "next" }, headers);
    expect((await failing).status).toBe(500);
    expect((await next).status).toBe(200);
  });
});

describe("drain", () => {
  it("refuses new runs with 503 while in-flight runs finish, then resolves", async () => {
    const test = await startTestGateway();
    const inFlight = test.post("/v1/responses", { input: "hold:busy" }, { "x-toolsift-session": "busy" });
    await test.runner.started("hold:busy");
    let drained = false;
    const draining = test.gateway.drain(60_000).then(() => {
      drained = true;
    });

    const refused = await test.post("/v1/responses", { input: "late" });
    expect(refused.status).toBe(503);
    expect(await errorOf(refused)).toMatchObject({ type: "server_error", code: "shutting_down" });
    const refusedChat = await test.post("/v1/chat/completions", {
      messages: [{ role: "user", content: "late" }],
    });
    expect(refusedChat.status).toBe(503);
    const health = await test.get("/healthz");
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, draining: true, providers: {} });
    expect((await test.get("/v1/sessions")).status).toBe(200);
    expect(test.gateway.stats().draining).toBe(true);
    expect(drained).toBe(false);

    test.runner.release("hold:busy");
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(((await response.json()) as { output_text: string }).output_text).toBe("released hold:busy");
    await draining;
    expect(drained).toBe(true);
    expect(test.runner.requests.map((request) => request.input)).toHaveLength(1);
  });

  it("waits for runs queued behind a session as well", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "queued" };
    const first = test.post("/v1/responses", { input: "hold:q1" }, headers);
    await test.runner.started("hold:q1");
    const second = test.post("/v1/responses", { input: "q2" }, headers);
    await vi.waitFor(() => expect(test.gateway.stats().queued).toBe(1), WAIT);
    const draining = test.gateway.drain(60_000);
    test.runner.release("hold:q1");
    await draining;
    expect(test.runner.timeline).toContain("end:q2");
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });

  it("is bounded: past the timeout it aborts the runs still in flight and returns", async () => {
    const test = await startTestGateway();
    const stuck = test.post("/v1/responses", { input: "hold:forever" });
    await test.runner.started("hold:forever");
    await test.gateway.drain(20);
    const response = await stuck;
    expect(response.status).toBe(503);
    expect(await errorOf(response)).toMatchObject({ code: "cancelled" });
    expect(test.runner.requests[0]?.signal?.aborted).toBe(true);
  });

  it("resolves at once when nothing is in flight", async () => {
    const test = await startTestGateway();
    await test.gateway.drain(60_000);
    expect(test.gateway.stats()).toEqual({ running: 0, queued: 0, draining: true });
  });
});
