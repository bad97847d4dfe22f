import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { startConfiguredGateway } from "../cli/start-configured-gateway.js";
import { createGateway } from "../gateway/create-gateway.js";
import { FakeRunner } from "../gateway/fake-runner.test-support.js";
import { ALL_TEST_KEYS, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { type ConsoleAnswer, consoleClient } from "./console-client.test-support.js";
import { MAX_FAILED_LOGINS_PER_ADDRESS } from "./login-rate-limit.js";
import { MAX_PAGE_OPENS_PER_ADDRESS, PAGE_OPEN_WINDOW_MS } from "./page-open-limit.js";

// The console behind a reverse proxy, over real HTTP on 127.0.0.1: with `trustedProxies` naming the peer, the
// login and page-open limits count the client X-Forwarded-For names; otherwise (an untrusted peer, or no
// setting) the peer, whatever the header says. The test's fetches come from 127.0.0.1, so a gateway trusting
// 127.0.0.1 sees them as a proxy's.

function code(answer: ConsoleAnswer): unknown {
  return (answer.body.error as { code?: unknown } | undefined)?.code;
}

/** A new last byte at each call: a client putting another made-up address in X-Forwarded-For each time. */
function rotating(): () => number {
  let count = 0;
  return () => {
    count += 1;
    return count % 250;
  };
}

/** A real gateway with keys, listening on 127.0.0.1, trusting `trustedProxies`. */
async function startGateway(trustedProxies?: string[]) {
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-console-proxy-"));
  const sessions = createFileSessionStore(stateDir);
  const logs: string[] = [];
  const gateway = createGateway({
    runner: new FakeRunner(sessions),
    sessions,
    authKeys: ALL_TEST_KEYS,
    ...(trustedProxies === undefined ? {} : { trustedProxies }),
    log: (line) => logs.push(line),
  });
  const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  onTestFinished(async () => {
    await listener.close();
    await rm(stateDir, { recursive: true, force: true });
  });
  return { url: listener.url, logs };
}

/** A browser behind the proxy: every request carries `X-Forwarded-For` as `forwardedFor()` says now. */
function behindProxy(url: string, forwardedFor: () => string) {
  const client = consoleClient(url);
  const send = (method: "GET" | "POST", path: string, options: { body?: unknown } = {}) =>
    client.send(method, path, { ...options, headers: { "x-forwarded-for": forwardedFor() } });
  return {
    send,
    get cookie() {
      return client.cookie;
    },
    async login(token: string) {
      await send("GET", "/session");
      return send("POST", "/login", { body: { token } });
    },
  };
}

/** Fails logins from `client` until its address is limited; the last answer (the limit's 429). */
async function guessUntilLimited(client: ReturnType<typeof behindProxy>): Promise<ConsoleAnswer> {
  await client.send("GET", "/session");
  for (let attempt = 0; attempt < MAX_FAILED_LOGINS_PER_ADDRESS; attempt += 1) {
    const wrong = await client.send("POST", "/login", { body: { token: `tsk-guess-${attempt}` } });
    expect([attempt, wrong.status, code(wrong)]).toEqual([attempt, 401, "invalid_api_key"]);
  }
  return client.send("POST", "/login", { body: { token: TEST_KEYS.alice.token } });
}

describe("failed logins behind a trusted proxy", () => {
  it("count the forwarded client: its logins are limited, another client behind the same proxy is not", async () => {
    const test = await startGateway(["127.0.0.1", "10.0.0.0/8"]);
    // The client puts a new spoofed entry in front each time; the proxies append what they saw.
    const spoof = rotating();
    const guesser = behindProxy(test.url, () => `198.51.100.${spoof()}, 203.0.113.7, 10.0.0.2`);
    const limited = await guessUntilLimited(guesser);
    expect([limited.status, code(limited)]).toEqual([429, "too_many_logins"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // Another browser behind the same proxies signs in: the limit is the guesser's address's, not the proxy's.
    const neighbour = behindProxy(test.url, () => "203.0.113.8, 10.0.0.2");
    expect((await neighbour.login(TEST_KEYS.alice.token)).status).toBe(200);
    // A request the proxy itself makes (no header) is the proxy's own address: not limited either.
    expect((await consoleClient(test.url).login(TEST_KEYS.bob.token)).status).toBe(200);
    // The guesser's own address, from any browser, is.
    const sameClient = behindProxy(test.url, () => "203.0.113.7");
    expect((await sameClient.login(TEST_KEYS.alice.token)).status).toBe(429);

    expect(test.logs.filter((line) => line.includes("failed logins within"))).toEqual([
      `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within 60 s from 203.0.113.7: its logins are refused for 60 s`,
    ]);
  });

  it("from a peer that is not a trusted proxy, X-Forwarded-For is ignored: the peer is counted", async () => {
    const test = await startGateway(["10.0.0.0/8"]);
    const spoof = rotating();
    const guesser = behindProxy(test.url, () => `203.0.113.${spoof()}`);
    const limited = await guessUntilLimited(guesser);
    expect([limited.status, code(limited)]).toEqual([429, "too_many_logins"]);
    // Naming another client does not help: the peer (127.0.0.1) is limited.
    const other = behindProxy(test.url, () => "203.0.113.250");
    expect((await other.login(TEST_KEYS.alice.token)).status).toBe(429);
    expect(test.logs.filter((line) => line.includes("failed logins within"))).toEqual([
      `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within 60 s from 127.0.0.1: its logins are refused for 60 s`,
    ]);
  });

  it("without trustedProxies, X-Forwarded-For is ignored", async () => {
    const test = await startGateway();
    const spoof = rotating();
    const guesser = behindProxy(test.url, () => `203.0.113.${spoof()}`);
    expect((await guessUntilLimited(guesser)).status).toBe(429);
    expect((await behindProxy(test.url, () => "203.0.113.250").login(TEST_KEYS.alice.token)).status).toBe(
      429,
    );
  });
});

describe("page opens per client address", () => {
  it(`past ${MAX_PAGE_OPENS_PER_ADDRESS} a minute from one address: 429 with Retry-After; other addresses and signed-in browsers go on`, async () => {
    const test = await startGateway(["127.0.0.1"]);
    // A browser of the looping address that signed in before the loop.
    const signedIn = behindProxy(test.url, () => "203.0.113.7");
    expect((await signedIn.login(TEST_KEYS.alice.token)).status).toBe(200);

    for (let open = 1; open < MAX_PAGE_OPENS_PER_ADDRESS; open += 1) {
      const page = await behindProxy(test.url, () => "203.0.113.7").send("GET", "/session");
      expect([open, page.status]).toEqual([open, 200]);
      expect(page.headers.get("set-cookie")).toMatch(/^toolsift_console=/u);
    }
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await behindProxy(test.url, () => "203.0.113.7").send("GET", "/session");
      expect([refused.status, code(refused)]).toEqual([429, "too_many_page_opens"]);
      expect((refused.body.error as { message: string }).message).toMatch(
        /too many console pages opened from this address without signing in: try again in \d+ s/u,
      );
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(PAGE_OPEN_WINDOW_MS / 1000);
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
    // A page that already has its session is not an open: the signed-in browser goes on, page and API.
    expect((await signedIn.send("GET", "/session")).body).toMatchObject({ signedIn: true, keyId: "alice" });
    expect((await signedIn.send("GET", "/sessions")).status).toBe(200);
    // Another client behind the same proxy opens its page and signs in.
    const other = behindProxy(test.url, () => "203.0.113.8");
    expect((await other.login(TEST_KEYS.bob.token)).status).toBe(200);

    expect(test.logs.filter((line) => line.includes("console sessions opened within"))).toEqual([
      `console: ${MAX_PAGE_OPENS_PER_ADDRESS} console sessions opened within 60 s from 203.0.113.7: its new pages are refused for 60 s`,
    ]);
  });

  it("from an untrusted peer, a new X-Forwarded-For each time does not escape the limit", async () => {
    const test = await startGateway(["10.0.0.0/8"]);
    const spoof = rotating();
    const statuses: number[] = [];
    for (let open = 0; open <= MAX_PAGE_OPENS_PER_ADDRESS; open += 1) {
      const page = await behindProxy(test.url, () => `203.0.113.${spoof()}`).send("GET", "/session");
      statuses.push(page.status);
    }
    expect(statuses.slice(0, MAX_PAGE_OPENS_PER_ADDRESS).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("gateway.trustedProxies in the config", () => {
  async function configured(gateway: Record<string, unknown>, env: Record<string, string> = {}) {
    const root = await mkdtemp(join(tmpdir(), "toolsift-console-proxy-config-"));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    const configPath = join(root, "toolsift.json");
    await writeFile(configPath, JSON.stringify({ gateway: { auth: { keys: ALL_TEST_KEYS }, ...gateway } }));
    const written: string[] = [];
    const start = () =>
      startConfiguredGateway({ configPath, port: 0, bind: "127.0.0.1" }, (line) => written.push(line), {
        PATH: process.env.PATH,
        TOOLSIFT_HOME: root,
        TOOLSIFT_STATE_DIR: join(root, "state"),
        ...env,
      });
    return { start, written };
  }

  it("reaches the console of `toolsift gateway`: the forwarded client is counted", async () => {
    const { start, written } = await configured({ trustedProxies: ["127.0.0.1"] });
    const running = await start();
    onTestFinished(() => running.stop());
    const spoof = rotating();
    const guesser = behindProxy(running.url, () => `198.51.100.${spoof()}, 203.0.113.9`);
    expect((await guessUntilLimited(guesser)).status).toBe(429);
    expect((await behindProxy(running.url, () => "203.0.113.10").login(TEST_KEYS.alice.token)).status).toBe(
      200,
    );
    expect(written.some((line) => line.includes("failed logins within 60 s from 203.0.113.9"))).toBe(true);
    expect(written).toContain(
      "gateway proxies: X-Forwarded-For names the client of requests from 127.0.0.1 (gateway.trustedProxies)",
    );
  });

  it("a bad entry from the environment refuses the start, naming the key", async () => {
    const { start } = await configured(
      { trustedProxies: ["127.0.0.1", "env:TOOLSIFT_TEST_PROXY"] },
      { TOOLSIFT_TEST_PROXY: "proxy.internal" },
    );
    let thrown: unknown;
    try {
      const running = await start();
      await running.stop();
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code).toBe("CONFIG_INVALID");
    expect((thrown as Error).message).toContain(
      'gateway.trustedProxies[1] "proxy.internal": expected an IP address',
    );
  });
});
