import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createApprovalBroker, type PendingApproval } from "../../runtime/approvals/index.js";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { createGateway } from "../gateway/create-gateway.js";
import { FakeRunner } from "../gateway/fake-runner.test-support.js";
import { startTestGateway, type TestGateway } from "../gateway/gateway.test-support.js";
import { ALL_TEST_KEYS, authorizationOf, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { CONSOLE_SCRIPTS } from "./console-assets.js";
import { type ConsoleAnswer as Answer, consoleClient as clientOf } from "./console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { CONSOLE_CSP } from "./security-headers.js";

// The console over real HTTP, as a browser's requests reach it: the cookie, the CSRF token, the Origin and
// Fetch Metadata checks, the security headers, and the same key scoping as the API.

function consoleClient(test: TestGateway) {
  return clientOf(test.url);
}

function code(answer: Answer): unknown {
  return (answer.body.error as { code?: unknown } | undefined)?.code;
}

describe("the console's pages and headers", () => {
  it("serves the pages, script and style with a strict CSP on every console response, 404s included", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    for (const path of [
      "/console",
      "/console/",
      "/console/login",
      "/console/sessions",
      "/console/approvals",
    ]) {
      const page = await fetch(`${test.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      const html = await page.text();
      expect(html).toContain('<script type="module" src="/console/assets/console.js"></script>');
      expect(html).not.toMatch(/<script>|<style>| on[a-z]+=|https?:\/\//u);
    }
    expect(CONSOLE_SCRIPTS.length).toBeGreaterThan(1);
    for (const name of CONSOLE_SCRIPTS) {
      const script = await fetch(`${test.url}/console/assets/${name}`);
      expect(script.headers.get("content-type"), name).toBe("text/javascript; charset=utf-8");
      const source = await script.text();
      expect(source, name).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|https?:\/\//u,
      );
      // Every module it imports is one the gateway serves.
      for (const [, imported] of source.matchAll(/from "\.\/([^"]+)"/gu))
        expect(CONSOLE_SCRIPTS).toContain(imported);
    }
    expect((await fetch(`${test.url}/console/assets/console.css`)).headers.get("content-type")).toBe(
      "text/css; charset=utf-8",
    );
    for (const path of [
      "/console/assets/console.html.bak",
      "/console/assets/..%2f..%2fpackage.json",
      "/console/nope",
    ]) {
      const missing = await fetch(`${test.url}${path}`);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    }
    // The API's own responses are unchanged.
    const models = await test.get("/v1/models", authorizationOf("alice"));
    expect(models.status).toBe(200);
    expect(models.headers.get("content-security-policy")).toBeNull();
  });

  it("gateway.console false: /console is not served (it needs a key like any unknown path)", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS, console: false });
    expect((await fetch(`${test.url}/console`)).status).toBe(401);
    expect((await test.get("/console", authorizationOf("ops"))).status).toBe(404);
    const open = await startTestGateway({ console: false });
    expect((await fetch(`${open.url}/console/sessions`)).status).toBe(404);
  });
});

describe("console sign-in, CSRF and origin checks", () => {
  it("a login swaps the token for an HttpOnly, SameSite=Strict cookie scoped to /console, with a new id", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const client = consoleClient(test);
    const first = await client.send("GET", "/session");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ signedIn: false, keyed: true });
    const pendingCookie = client.cookie;
    const setCookie = first.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/u);
    expect(setCookie).toMatch(/SameSite=Strict/u);
    expect(setCookie).toMatch(/Path=\/console/u);
    const login = await client.send("POST", "/login", { body: { token: TEST_KEYS.alice.token } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ signedIn: true, keyId: "alice" });
    expect(client.cookie).toBeDefined();
    expect(client.cookie).not.toBe(pendingCookie);
    expect(login.headers.get("set-cookie")).not.toContain(TEST_KEYS.alice.token);
    expect(test.logs.join("\n")).toContain("console: key alice signed in");
    expect(test.logs.join("\n")).not.toContain(TEST_KEYS.alice.token);
    // The cookie planted before the login is no session any more.
    const planted = await fetch(`${test.url}/console/api/sessions`, {
      headers: { cookie: `${SESSION_COOKIE}=${pendingCookie}`, [CSRF_HEADER]: String(first.body.csrf) },
    });
    expect(planted.status).toBe(401);
  });

  it("refuses a wrong token, and every POST without the CSRF token or from another origin", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const client = consoleClient(test);
    await client.send("GET", "/session");
    expect(code(await client.send("POST", "/login", { body: { token: "tsk-wrong" } }))).toBe(
      "invalid_api_key",
    );
    const token = { body: { token: TEST_KEYS.alice.token } };
    const refusals: Array<[string, Parameters<typeof client.send>[2], number, string]> = [
      ["no CSRF header", { ...token, omit: [CSRF_HEADER] }, 403, "csrf_token_invalid"],
      ["a wrong CSRF token", { ...token, headers: { [CSRF_HEADER]: "guess" } }, 403, "csrf_token_invalid"],
      ["another origin", { ...token, headers: { origin: "http://127.0.0.1:1" } }, 403, "forbidden_origin"],
      [
        "a listed-elsewhere origin",
        { ...token, headers: { origin: "http://localhost:3000" } },
        403,
        "forbidden_origin",
      ],
      ["no Origin", { ...token, omit: ["origin"] }, 403, "forbidden_origin"],
      [
        "cross-site fetch metadata",
        { ...token, headers: { "sec-fetch-site": "cross-site" } },
        403,
        "forbidden_origin",
      ],
      [
        "same-site fetch metadata",
        { ...token, headers: { "sec-fetch-site": "same-site" } },
        403,
        "forbidden_origin",
      ],
      [
        "a form body",
        { ...token, headers: { "content-type": "application/x-www-form-urlencoded" } },
        415,
        "unsupported_media_type",
      ],
    ];
    for (const [name, options, status, expected] of refusals) {
      const answer = await client.send("POST", "/login", options);
      expect([name, answer.status, code(answer)]).toEqual([name, status, expected]);
    }
    expect((await client.send("GET", "/sessions")).status).toBe(401);
    expect((await client.send("POST", "/login", token)).status).toBe(200);
  });

  it("reads need the CSRF token too, and the first call needs its header (no cross-origin cookie planting)", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const bare = await fetch(`${test.url}/console/api/session`);
    expect(bare.status).toBe(403);
    expect(bare.headers.get("set-cookie")).toBeNull();
    const client = consoleClient(test);
    await client.login(TEST_KEYS.alice.token);
    expect((await client.send("GET", "/sessions")).status).toBe(200);
    expect(code(await client.send("GET", "/sessions", { omit: [CSRF_HEADER] }))).toBe("csrf_token_invalid");
    expect(code(await client.send("GET", "/sessions", { headers: { origin: "http://evil.example" } }))).toBe(
      "forbidden_origin",
    );
  });

  it("logout ends the session on the server: its cookie no longer reads anything", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const client = consoleClient(test);
    await client.login(TEST_KEYS.alice.token);
    const cookie = client.cookie;
    const csrf = (await client.send("GET", "/session")).body.csrf as string;
    expect((await client.send("POST", "/logout")).status).toBe(200);
    const after = await fetch(`${test.url}/console/api/sessions`, {
      headers: { cookie: `${SESSION_COOKIE}=${cookie}`, [CSRF_HEADER]: csrf },
    });
    expect(after.status).toBe(401);
  });

  it("without keys the loopback caller is signed in at once (no login), as the trusted local caller", async () => {
    const test = await startTestGateway();
    const client = consoleClient(test);
    expect((await client.send("GET", "/session")).body).toMatchObject({
      signedIn: true,
      keyed: false,
      keyId: "local",
    });
    expect((await client.send("GET", "/sessions")).status).toBe(200);
  });
});

describe("the console shows a key what the API shows it", () => {
  it("sessions and approvals are scoped per key; admin sees all; scopes are enforced", async () => {
    const broker = createApprovalBroker({ timeoutMs: 600_000 });
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS, approvals: broker });
    const alice = authorizationOf("alice");
    expect(
      (await test.post("/v1/responses", { input: "hello" }, { ...alice, "x-toolsift-session": "alice-one" }))
        .status,
    ).toBe(200);
    const held = test.post(
      "/v1/responses",
      { input: "exec:ls" },
      { ...alice, "x-toolsift-session": "alice-exec" },
    );
    let pending: PendingApproval[] = [];
    for (let attempt = 0; attempt < 500 && pending.length === 0; attempt += 1) {
      pending = await broker.pending();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [approval] = pending;
    if (approval === undefined) throw new Error("no pending approval");

    const aliceConsole = consoleClient(test);
    await aliceConsole.login(TEST_KEYS.alice.token);
    const listed = await aliceConsole.send("GET", "/sessions");
    const names = (listed.body.data as Array<{ sessionKey: string }>).map((row) => row.sessionKey);
    expect(names).toContain("alice-one");
    expect((await aliceConsole.send("GET", "/sessions?text=ONE")).body.data).toHaveLength(1);
    const timeline = await aliceConsole.send("GET", "/session-events?agent=main&key=alice-one");
    expect(timeline.status).toBe(200);
    expect(JSON.stringify(timeline.body.events)).toContain("hello");

    const bobConsole = consoleClient(test);
    await bobConsole.login(TEST_KEYS.bob.token);
    expect((await bobConsole.send("GET", "/sessions")).body.data).toEqual([]);
    expect((await bobConsole.send("GET", "/session-events?agent=main&key=alice-one")).status).toBe(404);
    expect((await bobConsole.send("GET", "/approvals")).body.approvals).toEqual([]);
    const stolen = await bobConsole.send("POST", `/approvals/${approval.id}`, {
      body: { decision: "allow" },
    });
    expect(stolen.status).toBe(404);

    const tools = await aliceConsole.send("GET", "/tools?agent=main");
    expect(tools.status).toBe(200);
    expect(tools.body).toMatchObject({ agentId: "main" });
    expect((await aliceConsole.send("GET", "/tools?agent=nobody")).status).toBe(404);
    const helperOnly = consoleClient(test);
    await helperOnly.login(TEST_KEYS.helperOnly.token);
    expect(code(await helperOnly.send("GET", "/tools?agent=main"))).toBe("agent_not_allowed");

    const readerConsole = consoleClient(test);
    await readerConsole.login(TEST_KEYS.reader.token);
    expect(code(await readerConsole.send("GET", "/approvals"))).toBe("insufficient_scope");
    expect(code(await readerConsole.send("GET", "/tools?agent=main"))).toBe("insufficient_scope");
    const opsConsole = consoleClient(test);
    await opsConsole.login(TEST_KEYS.ops.token);
    const all = (await opsConsole.send("GET", "/sessions")).body.data as Array<{ owner: string | null }>;
    expect(all.map((row) => row.owner)).toContain("alice");

    expect((await aliceConsole.send("GET", "/approvals")).body.approvals).toHaveLength(1);
    const noCsrf = await aliceConsole.send("POST", `/approvals/${approval.id}`, {
      body: { decision: "allow" },
      omit: [CSRF_HEADER],
    });
    expect(noCsrf.status).toBe(403);
    const decided = await aliceConsole.send("POST", `/approvals/${approval.id}`, {
      body: { decision: "allow", note: "looks fine" },
    });
    expect(decided).toMatchObject({ status: 200, body: { id: approval.id, decision: "allow" } });
    expect((await held).status).toBe(200);
    broker.close();
  });
});

describe("the console's health page", () => {
  it("answers as /healthz: providers for any key; where the state fails only for an admin", async () => {
    const healthy = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    healthy.runner.providerStatus = () => ({ openai: "reachable", spare: "unknown" });
    const reader = consoleClient(healthy);
    await reader.login(TEST_KEYS.reader.token);
    expect((await reader.send("GET", "/health")).body).toEqual({
      ok: true,
      status: 200,
      providers: { openai: "reachable", spare: "unknown" },
    });

    const root = await mkdtemp(join(tmpdir(), "toolsift-console-health-"));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    await writeFile(join(root, "blocker"), "a file where a directory should be");
    const stateDir = join(root, "blocker", "state");
    const sessions = createFileSessionStore(stateDir);
    const gateway = createGateway({
      runner: new FakeRunner(sessions),
      sessions,
      authKeys: ALL_TEST_KEYS,
      log: () => {},
    });
    const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
    onTestFinished(() => listener.close());
    const alice = clientOf(listener.url);
    await alice.login(TEST_KEYS.alice.token);
    const hidden = (await alice.send("GET", "/health")).body;
    expect(hidden).toMatchObject({ ok: false, status: 503 });
    expect(String(hidden.reason)).toContain("cannot be written");
    expect(String(hidden.reason)).not.toContain("blocker");
    const ops = clientOf(listener.url);
    await ops.login(TEST_KEYS.ops.token);
    expect(String((await ops.send("GET", "/health")).body.reason)).toContain(stateDir);
  });
});
