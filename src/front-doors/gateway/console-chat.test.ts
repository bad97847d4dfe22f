import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { type AssembledRuntime, assembleRuntime } from "../cli/assemble-runtime.js";
import { consoleClient } from "../console/console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "../console/console-paths.js";
import type { ConsoleChatFrame } from "../console/index.js";
import { frameReader, postChat } from "./console-chat.test-support.js";
import { createGateway } from "./create-gateway.js";
import { startTestGateway, type TestGateway } from "./gateway.test-support.js";
import { ALL_TEST_KEYS, authorizationOf, TEST_KEYS } from "./gateway-keys.test-support.js";
import { type MockRuntime, startMockRuntime } from "./mock-runtime.test-support.js";
import type { GatewayListener } from "./types.js";

// The console's chat over real HTTP against a gateway whose runtime the CLI assembles over the mock provider
// (the example weather plugin): the turn runs through the API's run path, so the key's scopes, agents and
// session namespace are the API's, and the chat's session is one of the key's sessions like any other.

const QUESTION = "What is the weather in Berlin tomorrow? target=get_forecast";
const EXAMPLE_PLUGINS = fileURLToPath(new URL("../../../examples/plugins", import.meta.url));

let started: MockRuntime | undefined;
let mock: MockOpenAI;
let runtime: AssembledRuntime;
let listener: GatewayListener;
const logs: string[] = [];

beforeAll(async () => {
  started = await startMockRuntime("toolsift-console-chat-");
  ({ mock, runtime } = started);
  const gateway = createGateway({
    runner: runtime.runner,
    sessions: runtime.environment.sessions,
    authKeys: ALL_TEST_KEYS,
    approvals: runtime.environment.approvals,
    log: (line) => logs.push(line),
  });
  listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await listener?.close();
  await started?.close();
});

type ChatAnswer = { status: number; type: string | null; frames: ConsoleChatFrame[]; error?: unknown };

/** A console client signed in with `key`'s token, which posts chat turns as the page does. */
async function signedIn(key: keyof typeof TEST_KEYS) {
  const client = consoleClient(listener.url);
  const login = await client.login(TEST_KEYS[key].token);
  expect(login.status).toBe(200);
  const csrf = String(login.body.csrf);
  const chat = async (
    body: unknown,
    options: { headers?: Record<string, string>; omit?: string[] } = {},
  ): Promise<ChatAnswer> => {
    const headers: Record<string, string> = {
      [CSRF_HEADER]: csrf,
      cookie: `${SESSION_COOKIE}=${client.cookie}`,
      origin: listener.url,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
      ...options.headers,
    };
    for (const name of options.omit ?? []) delete headers[name];
    const response = await fetch(`${listener.url}/console/api/chat`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const type = response.headers.get("content-type");
    const text = await response.text();
    if (response.status !== 200) {
      return {
        status: response.status,
        type,
        frames: [],
        error: (JSON.parse(text) as { error: unknown }).error,
      };
    }
    const frames = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as ConsoleChatFrame);
    return { status: response.status, type, frames };
  };
  return { client, chat };
}

function codeOf(answer: ChatAnswer): unknown {
  return (answer.error as { code?: unknown } | undefined)?.code;
}

function textOf(frames: readonly ConsoleChatFrame[]): string {
  return frames.map((frame) => (frame.type === "text" ? frame.delta : "")).join("");
}

describe("the console chat", () => {
  it("serves the chat page as the console's shell, with its CSP", async () => {
    const page = await fetch(`${listener.url}/console/chat?agent=main&session=weather`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('id="nav-chat"');
    const script = await fetch(`${listener.url}/console/assets/chat-page.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });

  it("streams a turn as NDJSON: start, the search with its query and candidates, the call and its target, text, end", async () => {
    const alice = await signedIn("alice");
    const answer = await alice.chat({ agent: "main", session: "weather", input: QUESTION });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe("application/x-ndjson; charset=utf-8");
    const { frames } = answer;
    expect(frames[0]).toMatchObject({ type: "start", agent: "main", session: "weather" });
    const types = frames.map((frame) => frame.type);
    const search = frames.find((frame) => frame.type === "call" && frame.name === "tool_search");
    expect(search).toMatchObject({ type: "call", name: "tool_search" });
    const searchResult = frames.find((frame) => frame.type === "result" && frame.name === "tool_search");
    expect(searchResult?.type === "result" && searchResult.output).toContain("get_forecast");
    expect(frames).toContainEqual(expect.objectContaining({ type: "search", hits: expect.any(Number) }));
    const call = frames.find((frame) => frame.type === "call" && frame.name === "tool_call");
    expect(call?.type === "call" && (call.arguments as { id?: string }).id).toMatch(/get_forecast$/u);
    const callResult = frames.find((frame) => frame.type === "result" && frame.name === "tool_call");
    expect(callResult).toMatchObject({ isError: false });
    // Order: the search before the call, the call's result before the answer's text, the end last.
    expect(types.indexOf("call")).toBeLessThan(types.lastIndexOf("result"));
    expect(types.at(-1)).toBe("end");
    expect(frames.at(-1)).toEqual({ type: "end", status: "completed" });
    expect(textOf(frames)).toContain("Forecast for");
  });

  it("the chat's session is one of the key's sessions: listed by the API and the console, with the run in its log", async () => {
    const alice = await signedIn("alice");
    const answer = await alice.chat({ agent: "main", input: "hello from the console" });
    const start = answer.frames[0];
    expect(start?.type).toBe("start");
    const session = start?.type === "start" ? start.session : "";
    expect(session).toMatch(/^chat-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-[0-9a-f]{6}$/u);
    expect(textOf(answer.frames)).toBe("mock: hello from the console");
    const listed = await fetch(`${listener.url}/v1/sessions?agent=main`, {
      headers: authorizationOf("alice"),
    });
    const names = ((await listed.json()) as { data: Array<{ sessionKey: string }> }).data.map(
      (item) => item.sessionKey,
    );
    expect(names).toContain(session);
    const consoleList = await alice.client.send("GET", "/sessions?agent=main");
    expect(JSON.stringify(consoleList.body)).toContain(session);
    const read = await fetch(`${listener.url}/v1/sessions/${session}?agent=main`, {
      headers: authorizationOf("alice"),
    });
    const events = ((await read.json()) as { events: Array<{ type: string; status?: string }> }).events;
    expect(events.map((event) => event.type)).toContain("user-input");
    expect(events.at(-1)).toMatchObject({ type: "run-summary", status: "completed" });
    // Named again, the session is continued: the next turn is its second run.
    const again = await alice.chat({ agent: "main", session, input: "and again" });
    expect(again.frames[0]).toMatchObject({ type: "start", session });
    const reread = await fetch(`${listener.url}/v1/sessions/${session}?agent=main`, {
      headers: authorizationOf("alice"),
    });
    const summaries = ((await reread.json()) as { events: Array<{ type: string }> }).events.filter(
      (event) => event.type === "run-summary",
    );
    expect(summaries).toHaveLength(2);
  });

  it("bob's chat with alice's session name lands in bob's own namespace; the model never sees alice's text", async () => {
    const alice = await signedIn("alice");
    const bob = await signedIn("bob");
    const secret = "alice-private-words-7f3a";
    expect((await alice.chat({ agent: "main", session: "shared", input: `note ${secret}` })).status).toBe(
      200,
    );
    const cursor = mock.requests().at(-1)?.cursor ?? 0;
    const answer = await bob.chat({ agent: "main", session: "shared", input: "what did we say?" });
    expect(answer.frames[0]).toMatchObject({ type: "start", session: "shared" });
    expect(textOf(answer.frames)).toBe("mock: what did we say?");
    const seen = mock.requests().filter((request) => request.cursor > cursor);
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) expect(request.body).not.toContain(secret);
    // Two sessions, one per key, as the admin sees them; bob's log holds none of alice's text.
    const all = await fetch(`${listener.url}/v1/sessions?agent=main`, { headers: authorizationOf("ops") });
    const keys = ((await all.json()) as { data: Array<{ sessionKey: string }> }).data.map(
      (item) => item.sessionKey,
    );
    expect(keys).toEqual(expect.arrayContaining(["alice.shared", "bob.shared"]));
    const bobLog = await bob.client.send("GET", "/session-events?agent=main&key=shared");
    expect(JSON.stringify(bobLog.body)).not.toContain(secret);
  });

  it("refuses a key without runs, an agent the key may not run, an unknown agent and a bad body, before any run", async () => {
    const before = mock.requests().length;
    const reader = await signedIn("reader");
    const refused = await reader.chat({ agent: "main", input: "hi" });
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe("insufficient_scope");
    const helperOnly = await signedIn("helperOnly");
    const notAllowed = await helperOnly.chat({ agent: "main", input: "hi" });
    expect(notAllowed.status).toBe(403);
    expect(codeOf(notAllowed)).toBe("agent_not_allowed");
    const alice = await signedIn("alice");
    const unknown = await alice.chat({ agent: "nobody", input: "hi" });
    expect(unknown.status).toBe(404);
    for (const body of [
      { agent: "main" },
      { agent: "main", input: "   " },
      { agent: "main", input: 3 },
      { agent: "main", session: "../etc", input: "hi" },
      { agent: "main", session: 7, input: "hi" },
      ["not", "an", "object"],
    ]) {
      const bad = await alice.chat(body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect(mock.requests().length).toBe(before);
  });

  it("refuses a chat without the CSRF token, without an Origin, from another site, or signed out", async () => {
    const before = mock.requests().length;
    const alice = await signedIn("alice");
    const body = { agent: "main", input: "hi" };
    const noCsrf = await alice.chat(body, { omit: [CSRF_HEADER] });
    expect(noCsrf.status).toBe(403);
    expect(codeOf(noCsrf)).toBe("csrf_token_invalid");
    const wrongCsrf = await alice.chat(body, { headers: { [CSRF_HEADER]: "guess" } });
    expect(codeOf(wrongCsrf)).toBe("csrf_token_invalid");
    const noOrigin = await alice.chat(body, { omit: ["origin"] });
    expect(noOrigin.status).toBe(403);
    expect(codeOf(noOrigin)).toBe("forbidden_origin");
    const foreign = await alice.chat(body, { headers: { origin: "http://127.0.0.1:1" } });
    expect(foreign.status).toBe(403);
    const crossSite = await alice.chat(body, { headers: { "sec-fetch-site": "same-site" } });
    expect(codeOf(crossSite)).toBe("forbidden_origin");
    const form = await alice.chat(body, { headers: { "content-type": "text/plain" } });
    expect(form.status).toBe(415);
    const signedOut = await alice.chat(body, { omit: ["cookie"] });
    expect(signedOut.status).toBe(401);
    expect(mock.requests().length).toBe(before);
  });
});

describe("the console chat on the API's run path (a FakeRunner)", () => {
  /** Posts a chat turn for a signed-in console client of `test`; the response is returned unread. */
  async function chatter(test: TestGateway, key: keyof typeof TEST_KEYS) {
    const client = consoleClient(test.url);
    const login = await client.login(TEST_KEYS[key].token);
    return (body: unknown, signal?: AbortSignal) =>
      fetch(`${test.url}/console/api/chat`, {
        method: "POST",
        headers: {
          [CSRF_HEADER]: String(login.body.csrf),
          cookie: `${SESSION_COOKIE}=${client.cookie}`,
          origin: test.url,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
        ...(signal === undefined ? {} : { signal }),
      });
  }

  it("a session's queue is the API's: a full queue is a 429 session_busy; aborting the fetch cancels the run", async () => {
    const test = await startTestGateway({
      authKeys: ALL_TEST_KEYS,
      emitEvents: true,
      maxQueuedPerSession: 0,
    });
    const chat = await chatter(test, "alice");
    const leave = new AbortController();
    const held = await chat({ agent: "main", session: "busy", input: "hold:console" }, leave.signal);
    expect(held.status).toBe(200);
    const reader = held.body?.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader?.read();
    expect(JSON.parse(String(first?.value).split("\n")[0] ?? "")).toMatchObject({
      type: "start",
      session: "busy",
    });
    // The API's own requests queue on the same session (its stored key is alice's).
    const busy = await chat({ agent: "main", session: "busy", input: "hi" });
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe("session_busy");
    const viaApi = await test.post(
      "/v1/responses",
      { input: "hi" },
      {
        ...authorizationOf("alice"),
        "x-toolsift-session": "busy",
      },
    );
    expect(viaApi.status).toBe(429);
    // Stop: the page aborts its fetch; the run's signal aborts and the run ends without being released.
    leave.abort();
    await expect.poll(() => test.runner.timeline, { timeout: 10_000 }).toContain("end:hold:console");
    const after = await chat({ agent: "main", session: "busy", input: "hi again" });
    expect(after.status).toBe(200);
    await after.text();
  });

  it("a state that cannot be written is the API's 503 storage_unavailable, with Retry-After", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const chat = await chatter(test, "alice");
    const refused = await chat({ agent: "main", input: "fail:STORAGE_UNAVAILABLE" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("storage_unavailable");
  });
});

describe("the console chat's approvals, inline", () => {
  let root: string;
  let approvalMock: MockOpenAI;
  let approvalRuntime: AssembledRuntime;
  let approvalListener: GatewayListener;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "toolsift-console-chat-approvals-"));
    approvalMock = await startMockOpenAI({ port: 0 });
    const configPath = join(root, "toolsift.json");
    await writeFile(
      configPath,
      JSON.stringify({
        models: {
          providers: {
            mock: {
              api: "openai-responses",
              baseUrl: approvalMock.baseUrl,
              apiKey: "mock-key",
              maxRetries: 0,
            },
          },
        },
        agents: { defaults: { model: "mock/toolsift-mock" } },
        plugins: { load: { paths: [EXAMPLE_PLUGINS] } },
        tools: { approval: { require: ["get_forecast"], mode: "ask", timeoutMs: 60_000 } },
      }),
    );
    approvalRuntime = await assembleRuntime({
      configPath,
      env: { TOOLSIFT_STATE_DIR: join(root, "state") },
    });
    const gateway = createGateway({
      runner: approvalRuntime.runner,
      sessions: approvalRuntime.environment.sessions,
      authKeys: ALL_TEST_KEYS,
      approvals: approvalRuntime.environment.approvals,
      log: () => {},
    });
    approvalListener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  });

  afterAll(async () => {
    await approvalListener?.close();
    await approvalRuntime?.close();
    await approvalMock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("an approval the run waits on is a frame (arguments as the approvals API shows them); deciding it through the console lets the run go on", async () => {
    const alice = consoleClient(approvalListener.url);
    const login = await alice.login(TEST_KEYS.alice.token);
    const response = await postChat(
      approvalListener.url,
      { cookie: alice.cookie, csrf: login.body.csrf },
      { agent: "main", session: "asks", input: QUESTION },
    );
    expect(response.status).toBe(200);
    const read = frameReader(response);
    const approval = await read.until((frame) => frame.type === "approval");
    expect(approval).toMatchObject({
      type: "approval",
      toolId: "native:weather:get_forecast",
      toolName: "get_forecast",
      args: { city: expect.any(String) },
    });
    const id = approval.type === "approval" ? approval.id : "";
    // The same approval the approvals API lists for alice; bob does not see it, nor can he decide it.
    const listed = (await alice.send("GET", "/approvals")).body.approvals as Array<{
      id: string;
      args: unknown;
    }>;
    expect(listed.find((pending) => pending.id === id)?.args).toEqual(
      approval.type === "approval" ? approval.args : undefined,
    );
    const bob = consoleClient(approvalListener.url);
    await bob.login(TEST_KEYS.bob.token);
    expect((await bob.send("POST", `/approvals/${id}`, { body: { decision: "allow" } })).status).toBe(404);
    const decided = await alice.send("POST", `/approvals/${id}`, { body: { decision: "deny" } });
    expect(decided.status).toBe(200);
    expect(await read.until((frame) => frame.type === "approval-closed")).toEqual({
      type: "approval-closed",
      id,
    });
    const result = await read.until((frame) => frame.type === "result" && frame.name === "tool_call");
    expect(result).toMatchObject({ isError: true });
    expect(await read.until((frame) => frame.type === "end")).toMatchObject({ type: "end" });
    // Each approval was told once.
    expect(read.frames.filter((frame) => frame.type === "approval")).toHaveLength(1);
  });
});
