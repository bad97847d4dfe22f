import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { describe, expect, it, onTestFinished } from "vitest";
import { LogRing } from "../../runtime/environment/index.js";
import type { Caller } from "../../runtime/http-guard/index.js";
import { stdioFixture } from "../../runtime/mcp-client/mcp.test-support.js";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { startConfiguredGateway } from "../cli/start-configured-gateway.js";
import { createGateway } from "../gateway/create-gateway.js";
import { FakeRunner } from "../gateway/fake-runner.test-support.js";
import { ALL_TEST_KEYS, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { type ConsoleAnswer, consoleClient } from "./console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { createConsoleRoutes } from "./create-console.js";
import { fakeConsoleBackend } from "./fake-backend.test-support.js";
import { CONSOLE_IDLE_MS } from "./limits.js";
import { CONSOLE_CSP } from "./security-headers.js";
import type { ConsoleBackend } from "./types.js";

// The Logs page's API over real HTTP: admin only, pages after a cursor, the filter, the NDJSON live tail (a
// line written after it opened, the end at logout, at expiry and when the client goes, the cap on open
// tails), and, through the real `toolsift gateway` start, lines kept as written: redacted, one line each.

/** Bound on reading a frame the test expects (against hangs, not a timing goal). */
const FRAME_BOUND_MS = 10_000;

type Frame = { type: string; text?: string; seq?: number; next?: number; count?: number; reason?: string };
type Client = ReturnType<typeof consoleClient>;

function code(answer: ConsoleAnswer): unknown {
  return (answer.body.error as { code?: unknown } | undefined)?.code;
}

function texts(answer: ConsoleAnswer): string[] {
  return (answer.body.lines as Array<{ text: string }>).map((line) => line.text);
}

/** A real gateway (keys, a FakeRunner) whose log goes into a ring, as `toolsift gateway` wires it. */
async function logGateway(): Promise<{ url: string; ring: LogRing }> {
  const ring = new LogRing();
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-console-logs-"));
  const sessions = createFileSessionStore(stateDir);
  const gateway = createGateway({
    runner: new FakeRunner(sessions),
    sessions,
    authKeys: ALL_TEST_KEYS,
    log: (line) => ring.append(line),
    logRing: ring,
  });
  const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  onTestFinished(async () => {
    await listener.close();
    await rm(stateDir, { recursive: true, force: true });
  });
  return { url: listener.url, ring };
}

/** An open live tail: its frames as they arrive, and the controller that makes the client go away. */
type Tail = { status: number; next(): Promise<Frame | undefined>; abort(): void };

/** Opens `GET /console/api/logs/stream` as the page does (fetch, cookie and CSRF header). */
async function openTail(url: string, client: Client, query = ""): Promise<Tail> {
  const aborter = new AbortController();
  onTestFinished(() => aborter.abort());
  const response = await fetch(`${url}/console/api/logs/stream${query}`, {
    headers: {
      [CSRF_HEADER]: client.csrf,
      "sec-fetch-site": "same-origin",
      cookie: `${SESSION_COOKIE}=${client.cookie}`,
    },
    signal: aborter.signal,
  });
  if (response.body === null || !response.ok) {
    return { status: response.status, next: async () => undefined, abort: () => aborter.abort() };
  }
  expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
  expect(response.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const next = async (): Promise<Frame | undefined> => {
    for (;;) {
      const newline = buffered.indexOf("\n");
      if (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        return JSON.parse(line) as Frame;
      }
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      buffered += chunk.value;
    }
  };
  return { status: response.status, next, abort: () => aborter.abort() };
}

/** Reads frames until one satisfies `wanted`; fails after FRAME_BOUND_MS or when the stream ends first. */
async function frameWhere(tail: Tail, wanted: (frame: Frame) => boolean): Promise<Frame[]> {
  const seen: Frame[] = [];
  const bound = setTimeout(() => tail.abort(), FRAME_BOUND_MS);
  try {
    for (;;) {
      const frame = await tail.next();
      if (frame === undefined) throw new Error(`the stream ended first: ${JSON.stringify(seen)}`);
      seen.push(frame);
      if (wanted(frame)) return seen;
    }
  } finally {
    clearTimeout(bound);
  }
}

async function signedIn(url: string, key: keyof typeof TEST_KEYS): Promise<Client> {
  const client = consoleClient(url);
  expect((await client.login(TEST_KEYS[key].token)).status).toBe(200);
  return client;
}

describe("the console's log API", () => {
  it("is for an admin only: other keys get 403 insufficient_scope, no session 401, no CSRF token 403", async () => {
    const { url } = await logGateway();
    for (const key of ["alice", "reader", "runner", "approver"] as const) {
      const client = await signedIn(url, key);
      const page = await client.send("GET", "/logs");
      expect(page.status, key).toBe(403);
      expect(code(page), key).toBe("insufficient_scope");
      expect((await openTail(url, client)).status, key).toBe(403);
    }
    const stranger = consoleClient(url);
    await stranger.send("GET", "/session");
    expect((await stranger.send("GET", "/logs")).status).toBe(401);
    const ops = await signedIn(url, "ops");
    expect(code(await ops.send("GET", "/logs", { omit: [CSRF_HEADER] }))).toBe("csrf_token_invalid");
    const page = await ops.send("GET", "/logs");
    expect(page.status).toBe(200);
    expect(texts(page)).toContain("console: key ops signed in");
    expect(texts(page)).toContain("console: key alice signed in");
  });

  it("pages after a cursor and filters case-insensitively; a cursor that is no number is a 400", async () => {
    const { url, ring } = await logGateway();
    const ops = await signedIn(url, "ops");
    const first = await ops.send("GET", "/logs");
    const next = first.body.next as number;
    expect(next).toBe((first.body.lines as Array<{ seq: number }>).at(-1)?.seq);
    ring.append("mcp weather: ready, 3 tools");
    ring.append("console: key Alice signed in");
    const after = await ops.send("GET", `/logs?after=${next}`);
    // The lines after the cursor: the page request's own line, then the two written since.
    expect(texts(after).slice(-2)).toEqual(["mcp weather: ready, 3 tools", "console: key Alice signed in"]);
    expect(texts(after).every((text) => !texts(first).includes(text) || text.startsWith("GET "))).toBe(true);
    const filtered = await ops.send("GET", `/logs?after=0&text=${encodeURIComponent("SIGNED IN")}`);
    expect(texts(filtered)).toEqual(["console: key ops signed in", "console: key Alice signed in"]);
    const bad = await ops.send("GET", "/logs?after=1e3");
    expect(bad.status).toBe(400);
    expect(code(bad)).toBe("invalid_request");
  });

  it("the live tail sends a line written after it opened, filtered, and nothing it filtered out", async () => {
    const { url } = await logGateway();
    const ops = await signedIn(url, "ops");
    const tail = await openTail(url, ops, "?text=ALICE");
    expect(tail.status).toBe(200);
    const [opened] = await frameWhere(tail, () => true);
    expect(opened).toMatchObject({ type: "open" });
    // Another browser signs in: the gateway logs it, and the tail shows it.
    await signedIn(url, "alice");
    const frames = await frameWhere(tail, (frame) => frame.type === "line");
    expect(frames.at(-1)).toMatchObject({ type: "line", text: "console: key alice signed in" });
    expect(frames.at(-1)?.seq).toBeGreaterThan(opened?.next ?? Number.POSITIVE_INFINITY);
    // The filter holds: the login's request line does not name alice, so it never came.
    expect(frames.filter((frame) => frame.type === "line")).toHaveLength(1);
  });

  it("a tail from a cursor sends the lines after it first; logout ends it with a reason", async () => {
    const { url, ring } = await logGateway();
    const ops = await signedIn(url, "ops");
    const cursor = ring.page({ limit: 1 }).next;
    ring.append("written before the tail opened");
    const tail = await openTail(url, ops, `?after=${cursor}`);
    const frames = await frameWhere(tail, (frame) => frame.type === "line");
    expect(frames.at(-1)?.text).toBe("written before the tail opened");
    expect((await ops.send("POST", "/logout")).status).toBe(200);
    const ended = await frameWhere(tail, (frame) => frame.type === "end");
    expect(ended.at(-1)?.reason).toContain("signed out or expired");
    expect(await tail.next()).toBeUndefined();
  });

  it("caps the tails open at once (429 past it); a client that goes away frees its place", async () => {
    const { url } = await logGateway();
    const ops = await signedIn(url, "ops");
    const tails: Tail[] = [];
    for (let index = 0; index < 8; index += 1) {
      const tail = await openTail(url, ops);
      expect(tail.status).toBe(200);
      await frameWhere(tail, (frame) => frame.type === "open");
      tails.push(tail);
    }
    const refused = await openTail(url, ops);
    expect(refused.status).toBe(429);
    const again = await ops.send("GET", "/logs");
    expect(again.status).toBe(200);
    tails[0]?.abort();
    // The server sees the connection close and ends that tail: a new one fits again.
    let reopened: Tail | undefined;
    for (let attempt = 0; attempt < 200 && reopened === undefined; attempt += 1) {
      const tail = await openTail(url, ops);
      if (tail.status === 200) reopened = tail;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(reopened?.status).toBe(200);
  });
});

describe("the live tail's heartbeat and the session's expiry", () => {
  it("writes heartbeats, and ends when the console session expires (an open tail is not use)", async () => {
    let clock = Date.now();
    const ring = new LogRing();
    const ops: Caller = { keyId: "ops", scopes: ["admin"], trusted: false };
    const backend: ConsoleBackend = fakeConsoleBackend(
      { "tsk-ops": ops },
      { agents: () => [], logs: () => ring },
    );
    const app = createConsoleRoutes({
      backend,
      log: (line) => ring.append(line),
      now: () => clock,
      logStreams: { heartbeatMs: 50 },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = consoleClient(url);
    expect((await client.login("tsk-ops")).status).toBe(200);
    const tail = await openTail(url, client);
    await frameWhere(tail, (frame) => frame.type === "heartbeat");
    clock += CONSOLE_IDLE_MS + 1;
    const ended = await frameWhere(tail, (frame) => frame.type === "end");
    expect(ended.at(-1)?.reason).toContain("signed out or expired");
    expect(await tail.next()).toBeUndefined();
  });
});

describe("toolsift gateway's log ring and health checks", () => {
  it("keeps lines as written (redacted, one line each); the health checks show MCP servers and doctor's checks", async () => {
    const root = await mkdtemp(join(tmpdir(), "toolsift-console-ring-"));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    const apiKey = "sk-console-ring-0123456789abcdefghijklmnop";
    const configPath = join(root, "toolsift.json");
    await writeFile(
      configPath,
      JSON.stringify({
        models: { providers: { openai: { api: "openai-responses", apiKey } } },
        mcp: { servers: { fixture: stdioFixture({ prefix: "fx", count: 3 }) } },
        gateway: { auth: { keys: ALL_TEST_KEYS } },
      }),
    );
    const written: string[] = [];
    const running = await startConfiguredGateway(
      { configPath, port: 0, bind: "127.0.0.1" },
      (line) => written.push(line),
      { PATH: process.env.PATH, TOOLSIFT_HOME: root, TOOLSIFT_STATE_DIR: join(root, "state") },
    );
    onTestFinished(() => running.stop());
    // A stranger's request puts the provider key, a gateway token and a newline into a logged path.
    const probe = `/v1/${apiKey}/${TEST_KEYS.alice.token}/a%0Ab`;
    await fetch(`${running.url}${probe}`, { headers: { authorization: `Bearer ${TEST_KEYS.ops.token}` } });
    const ops = await signedIn(running.url, "ops");
    const lines = texts(await ops.send("GET", "/logs?after=0"));
    const probeLine = lines.find((text) => text.startsWith("GET /v1/"));
    expect(probeLine).toBeDefined();
    // Both secrets redacted, the newline shown as its escape: one line.
    expect(probeLine).toMatch(/^GET \/v1\/\[REDACTED\]\/\[REDACTED\]\/a\\nb 404 \d+ms$/u);
    for (const text of lines) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(TEST_KEYS.alice.token);
      expect(text).not.toMatch(/[\n\r]/u);
    }
    // The ring holds exactly what was written out.
    expect(lines.every((text) => written.includes(text))).toBe(true);

    // Once the MCP server is up, the health checks show it; the admin sees the doctor's words.
    let checks = await ops.send("GET", "/health/checks");
    for (let attempt = 0; attempt < 400; attempt += 1) {
      checks = await ops.send("GET", "/health/checks");
      const servers = checks.body.servers as Array<{ status: string }>;
      if (servers[0]?.status === "ready") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const server = { name: "fixture", status: "ready", tools: expect.any(Number) };
    expect(checks.body.servers).toEqual([server]);
    expect((checks.body.servers as Array<{ tools: number }>)[0]?.tools).toBeGreaterThan(0);
    const adminChecks = checks.body.checks as Array<{ name: string; status: string; message?: string }>;
    expect(adminChecks.map((check) => check.name)).toEqual(
      expect.arrayContaining(["state-dir", "providers", "mcp-servers", "policy", "gateway-auth"]),
    );
    expect(adminChecks.find((check) => check.name === "state-dir")?.message).toContain("is writable");
    expect(adminChecks.find((check) => check.name === "mcp-servers")?.message).toContain("fixture");
    expect(JSON.stringify(checks.body)).not.toContain(apiKey);
    // Another key sees the statuses only.
    const alice = await signedIn(running.url, "alice");
    const shown = await alice.send("GET", "/health/checks");
    expect(shown.status).toBe(200);
    expect(shown.body.details).toBe(false);
    for (const check of shown.body.checks as Array<Record<string, unknown>>)
      expect(Object.keys(check).sort()).toEqual(["name", "status"]);
    expect(shown.body.servers).toEqual([server]);
  });
});
