import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { AuthKey } from "../../runtime/http-guard/index.js";
import {
  type ConsoleSessionStore,
  createFileStateStore,
  createMemoryConsoleSessionStore,
} from "../../runtime/state/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { createGateway } from "../gateway/create-gateway.js";
import { FakeRunner } from "../gateway/fake-runner.test-support.js";
import { startTestGateway } from "../gateway/gateway.test-support.js";
import { ALL_TEST_KEYS, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { type ConsoleAnswer, consoleClient } from "./console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { LOGIN_WINDOW_MS, MAX_FAILED_LOGINS_PER_ADDRESS } from "./login-rate-limit.js";

// Sign-in over real HTTP: the Secure flag behind a TLS proxy, the login rate limit, and sessions that live in
// a shared store and are turned back into callers by each gateway's own keys at every request.

function code(answer: ConsoleAnswer): unknown {
  return (answer.body.error as { code?: unknown } | undefined)?.code;
}

describe("the session cookie behind a TLS proxy", () => {
  it("is Secure when the page's Origin is https:// or the proxy says X-Forwarded-Proto: https, and only then", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const https = test.url.replace("http://", "https://");

    const plain = consoleClient(test.url);
    const plainPage = await plain.send("GET", "/session");
    expect(plainPage.headers.get("set-cookie")).not.toMatch(/Secure/iu);
    const plainLogin = await plain.send("POST", "/login", { body: { token: TEST_KEYS.alice.token } });
    expect(plainLogin.status).toBe(200);
    expect(plainLogin.headers.get("set-cookie")).not.toMatch(/Secure/iu);

    const proxied = consoleClient(test.url);
    const proxiedPage = await proxied.send("GET", "/session", { headers: { "x-forwarded-proto": "https" } });
    expect(proxiedPage.headers.get("set-cookie")).toMatch(/; Secure/u);
    const login = await proxied.send("POST", "/login", {
      body: { token: TEST_KEYS.alice.token },
      headers: { origin: https },
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/; Secure/u);
    expect(cookie).toMatch(/HttpOnly/u);
    expect(cookie).toMatch(/SameSite=Strict/u);
    const logout = await proxied.send("POST", "/logout", { headers: { origin: https } });
    expect(logout.status).toBe(200);
    expect(logout.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*; Secure`, "u"));

    // An https Origin of another host is still refused by the guard, cookie or not.
    const other = consoleClient(test.url);
    await other.send("GET", "/session");
    const foreign = await other.send("POST", "/login", {
      body: { token: TEST_KEYS.alice.token },
      headers: { origin: "https://evil.example" },
    });
    expect([foreign.status, code(foreign), foreign.headers.get("set-cookie")]).toEqual([
      403,
      "forbidden_origin",
      null,
    ]);
    // A proxy header that names another scheme is not TLS.
    const http = consoleClient(test.url);
    const page = await http.send("GET", "/session", { headers: { "x-forwarded-proto": "http" } });
    expect(page.headers.get("set-cookie")).not.toMatch(/Secure/iu);
  });
});

describe("the login rate limit", () => {
  it("past the failures an address may make: 429 with Retry-After, a right token refused too, logged once", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    const signedInBefore = consoleClient(test.url);
    expect((await signedInBefore.login(TEST_KEYS.bob.token)).status).toBe(200);

    const guesser = consoleClient(test.url);
    await guesser.send("GET", "/session");
    for (let attempt = 0; attempt < MAX_FAILED_LOGINS_PER_ADDRESS; attempt += 1) {
      const wrong = await guesser.send("POST", "/login", { body: { token: `tsk-guess-${attempt}` } });
      expect([attempt, wrong.status, code(wrong)]).toEqual([attempt, 401, "invalid_api_key"]);
    }
    for (const token of ["tsk-guess-more", TEST_KEYS.alice.token, "tsk-guess-again"]) {
      const limited = await guesser.send("POST", "/login", { body: { token } });
      expect(limited.status).toBe(429);
      expect(code(limited)).toBe("too_many_logins");
      expect((limited.body.error as { message: string }).message).toMatch(
        /too many failed console logins from this address: try again in \d+ s/u,
      );
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
      expect(limited.headers.get("set-cookie")).toBeNull();
    }
    // Another browser on the same address is limited as well: the limit is the address's.
    const sameAddress = consoleClient(test.url);
    expect((await sameAddress.login(TEST_KEYS.alice.token)).status).toBe(429);
    // A session signed in before goes on working.
    expect((await signedInBefore.send("GET", "/sessions")).status).toBe(200);

    const limitLines = test.logs.filter((line) => line.includes("failed logins within"));
    expect(limitLines).toEqual([
      `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within 60 s from 127.0.0.1: its logins are refused for 60 s`,
    ]);
    expect(
      test.logs.filter((line) => line === "console: login refused (no key has that token)"),
    ).toHaveLength(MAX_FAILED_LOGINS_PER_ADDRESS);
    expect(test.logs.join("\n")).not.toContain(TEST_KEYS.alice.token);
  });

  it("a right token is never counted as a failure", async () => {
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS });
    for (let attempt = 0; attempt < MAX_FAILED_LOGINS_PER_ADDRESS * 2; attempt += 1) {
      expect((await consoleClient(test.url).login(TEST_KEYS.alice.token)).status).toBe(200);
    }
    const client = consoleClient(test.url);
    await client.send("GET", "/session");
    for (let attempt = 0; attempt < MAX_FAILED_LOGINS_PER_ADDRESS - 1; attempt += 1) {
      expect((await client.send("POST", "/login", { body: { token: "tsk-typo" } })).status).toBe(401);
    }
    expect((await client.send("POST", "/login", { body: { token: TEST_KEYS.alice.token } })).status).toBe(
      200,
    );
  });
});

describe("console sessions in a shared store, callers from each gateway's keys", () => {
  /** A gateway whose console sessions live in `shared` (as a fleet's live in its database), with `authKeys`. */
  async function startSharing(shared: ConsoleSessionStore, authKeys?: AuthKey[]) {
    const stateDir = await mkdtemp(join(tmpdir(), "toolsift-console-shared-"));
    const state = { ...createFileStateStore(stateDir), consoleSessions: shared };
    const logs: string[] = [];
    const gateway = createGateway({
      runner: new FakeRunner(state.sessions),
      sessions: state.sessions,
      state,
      ...(authKeys === undefined ? {} : { authKeys }),
      log: (line) => logs.push(line),
    });
    const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
    onTestFinished(async () => {
      await listener.close();
      await rm(stateDir, { recursive: true, force: true });
    });
    return { url: listener.url, logs };
  }

  /** Two gateways sharing one console session store; B has other keys. */
  async function twoGateways(keysOfB: AuthKey[]) {
    const shared = createMemoryConsoleSessionStore();
    return { a: await startSharing(shared, ALL_TEST_KEYS), b: await startSharing(shared, keysOfB) };
  }

  /** A request to `url`'s console with another client's cookie and CSRF token. */
  async function carry(url: string, cookie: string | undefined, csrf: unknown, path: string) {
    return fetch(`${url}/console/api${path}`, {
      headers: {
        cookie: `${SESSION_COOKIE}=${cookie}`,
        [CSRF_HEADER]: String(csrf),
        "sec-fetch-site": "same-origin",
      },
    });
  }

  it("a cookie from A works on B; B's keys decide who it is: a removed key ends it, changed scopes apply at once", async () => {
    const keysOfB: AuthKey[] = [
      { ...TEST_KEYS.alice, scopes: ["runs"] },
      TEST_KEYS.ops,
      // bob is not configured on B.
    ];
    const { a, b } = await twoGateways(keysOfB);

    const ops = consoleClient(a.url);
    const opsLogin = await ops.login(TEST_KEYS.ops.token);
    const onB = await carry(b.url, ops.cookie, opsLogin.body.csrf, "/sessions");
    expect(onB.status).toBe(200);
    const sessionOnB = await carry(b.url, ops.cookie, opsLogin.body.csrf, "/session");
    expect(await sessionOnB.json()).toMatchObject({ signedIn: true, keyId: "ops", csrf: opsLogin.body.csrf });
    expect(sessionOnB.headers.get("set-cookie")).toBeNull();

    const alice = consoleClient(a.url);
    const aliceLogin = await alice.login(TEST_KEYS.alice.token);
    expect((await alice.send("GET", "/sessions")).status).toBe(200);
    const aliceOnB = await carry(b.url, alice.cookie, aliceLogin.body.csrf, "/sessions");
    expect(aliceOnB.status).toBe(403);
    expect(((await aliceOnB.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");
    const aliceSessionOnB = await carry(b.url, alice.cookie, aliceLogin.body.csrf, "/session");
    expect(await aliceSessionOnB.json()).toMatchObject({ signedIn: true, keyId: "alice", scopes: ["runs"] });

    const bob = consoleClient(a.url);
    const bobLogin = await bob.login(TEST_KEYS.bob.token);
    expect((await bob.send("GET", "/sessions")).status).toBe(200);
    const bobOnB = await carry(b.url, bob.cookie, bobLogin.body.csrf, "/sessions");
    expect(bobOnB.status).toBe(401);
    expect(((await bobOnB.json()) as { error: { code: string } }).error.code).toBe("console_login_required");
    expect(b.logs).toContain("console: key bob is not configured on this gateway: its console session ended");
    // Ended in the shared store: A, which still knows bob, no longer finds the session either.
    const bobBackOnA = await bob.send("GET", "/sessions");
    expect([bobBackOnA.status, code(bobBackOnA)]).toEqual([401, "console_login_required"]);
    const fresh = await bob.send("GET", "/session");
    expect(fresh.body).toMatchObject({ signedIn: false });
    expect(bob.cookie).not.toBe(undefined);
  });

  it("the trusted loopback caller's session is no key's on a gateway with keys, and works without keys", async () => {
    const shared = createMemoryConsoleSessionStore();
    const keyless = await startSharing(shared);
    const keyed = await startSharing(shared, ALL_TEST_KEYS);
    const local = consoleClient(keyless.url);
    const page = await local.send("GET", "/session");
    expect(page.body).toMatchObject({ signedIn: true, keyed: false, keyId: "local" });
    expect((await local.send("GET", "/sessions")).status).toBe(200);
    expect((await carry(keyed.url, local.cookie, page.body.csrf, "/sessions")).status).toBe(401);
  });

  it("a session store that cannot be reached is the gateway's 503 storage_unavailable, the cookie kept", async () => {
    const unavailable = () =>
      Promise.reject(new ToolsiftError("STORAGE_UNAVAILABLE", "The state database is unavailable (test)."));
    const down = await startSharing(
      { open: unavailable, find: unavailable, isSignedIn: unavailable, close: unavailable },
      ALL_TEST_KEYS,
    );
    const answer = await fetch(`${down.url}/console/api/session`, {
      headers: {
        cookie: `${SESSION_COOKIE}=some-session`,
        [CSRF_HEADER]: "x",
        "sec-fetch-site": "same-origin",
      },
    });
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("storage_unavailable");
    expect(answer.headers.get("set-cookie")).toBeNull();
  });
});
