import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, SESSION_COOKIE } from "../../src/front-doors/console/console-paths.js";
import { MAX_FAILED_LOGINS_PER_ADDRESS } from "../../src/front-doors/console/login-rate-limit.js";
import { MAX_PAGE_OPENS_PER_ADDRESS } from "../../src/front-doors/console/page-open-limit.js";
import { createGateway } from "../../src/front-doors/gateway/create-gateway.js";
import { FakeRunner } from "../../src/front-doors/gateway/fake-runner.test-support.js";
import { ALL_TEST_KEYS, TEST_KEYS } from "../../src/front-doors/gateway/gateway-keys.test-support.js";
import { createFileSessionStore } from "../../src/runtime/sessions/index.js";

// The console behind a real nginx with docs/fleet.md's proxy lines (Host, X-Forwarded-For
// $proxy_add_x_forwarded_for, X-Forwarded-Proto), on loopback: the test's clients connect to nginx from
// different loopback addresses (127.0.0.2, 127.0.0.3, …), nginx reaches the gateway from 127.0.0.1, and the
// gateway trusts 127.0.0.1 (`trustedProxies`). Skipped where there is no nginx (Debian's `nginx` package).

const NGINX = "/usr/sbin/nginx";
const HOST = "toolsift.example.com";

/** Bound on nginx coming up (against hangs, not a timing goal). */
const START_BOUND_MS = 10_000;

type Answer = { status: number; body: Record<string, unknown>; headers: Record<string, unknown> };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

describe.skipIf(!existsSync(NGINX))("the console behind nginx", () => {
  let root: string;
  let nginx: ChildProcess | undefined;
  let nginxPort: number;
  let closeGateway: (() => Promise<void>) | undefined;
  const logs: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "toolsift-console-nginx-"));
    const sessions = createFileSessionStore(join(root, "state"));
    const gateway = createGateway({
      runner: new FakeRunner(sessions),
      sessions,
      authKeys: ALL_TEST_KEYS,
      allowedHosts: [HOST],
      trustedProxies: ["127.0.0.1"],
      log: (line) => logs.push(line),
    });
    const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
    closeGateway = () => listener.close();
    const gatewayPort = new URL(listener.url).port;
    nginxPort = await freePort();
    const prefix = join(root, "nginx");
    await mkdir(join(prefix, "logs"), { recursive: true });
    await mkdir(join(prefix, "tmp"), { recursive: true });
    const temp = join(prefix, "tmp");
    await writeFile(
      join(prefix, "nginx.conf"),
      `daemon off;
worker_processes 1;
pid ${join(prefix, "nginx.pid")};
error_log ${join(prefix, "logs", "error.log")};
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${temp}; proxy_temp_path ${temp}; fastcgi_temp_path ${temp};
  uwsgi_temp_path ${temp}; scgi_temp_path ${temp};
  upstream toolsift { server 127.0.0.1:${gatewayPort}; keepalive 8; }
  server {
    listen 127.0.0.1:${nginxPort};
    server_name ${HOST};
    location / {
      proxy_pass http://toolsift;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
    }
  }
}
`,
    );
    nginx = spawn(
      NGINX,
      ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(prefix, "logs", "error.log")],
      {
        stdio: "ignore",
      },
    );
    const started = Date.now();
    for (;;) {
      const up = await send("127.0.0.1", "GET", "/healthz").then(
        (answer) => answer.status === 200,
        () => false,
      );
      if (up) break;
      if (Date.now() - started > START_BOUND_MS) {
        const errors = await readFile(join(prefix, "logs", "error.log"), "utf8").catch(() => "");
        throw new Error(`nginx did not come up: ${errors}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await closeGateway?.();
    await rm(root, { recursive: true, force: true });
  });

  /** One request to nginx from the loopback address `from`. */
  function send(
    from: string,
    method: "GET" | "POST",
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const outgoing = request(
        {
          host: "127.0.0.1",
          port: nginxPort,
          localAddress: from,
          method,
          path,
          headers: {
            host: HOST,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            ...options.headers,
          },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: Record<string, unknown> = {};
            try {
              parsed = JSON.parse(text) as Record<string, unknown>;
            } catch {
              parsed = { text };
            }
            resolve({ status: incoming.statusCode ?? 0, body: parsed, headers: incoming.headers });
          });
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  }

  /** A browser at loopback address `from`, sending `spoof` as its own X-Forwarded-For (nginx appends to it). */
  function browser(from: string, spoof?: () => string) {
    let cookie: string | undefined;
    let csrf = "bootstrap";
    const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
      const answer = await send(from, method, `/console/api${path}`, {
        headers: {
          [CSRF_HEADER]: csrf,
          "sec-fetch-site": "same-origin",
          ...(cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${cookie}` }),
          ...(method === "POST" ? { origin: `http://${HOST}` } : {}),
          ...(spoof === undefined ? {} : { "x-forwarded-for": spoof() }),
        },
        ...(body === undefined ? {} : { body }),
      });
      const set = answer.headers["set-cookie"];
      const value = new RegExp(`${SESSION_COOKIE}=([^;]*)`, "u").exec(String(set ?? ""))?.[1];
      if (value !== undefined) cookie = value;
      if (typeof answer.body.csrf === "string") csrf = answer.body.csrf;
      return answer;
    };
    return {
      call,
      async login(token: string) {
        await call("GET", "/session");
        return call("POST", "/login", { token });
      },
    };
  }

  it("counts each browser's own address for failed logins; a spoofed X-Forwarded-For changes nothing", async () => {
    let spoofs = 0;
    const guesser = browser("127.0.0.2", () => {
      spoofs += 1;
      return `198.51.100.${spoofs}`;
    });
    await guesser.call("GET", "/session");
    for (let attempt = 0; attempt < MAX_FAILED_LOGINS_PER_ADDRESS; attempt += 1) {
      const wrong = await guesser.call("POST", "/login", { token: `tsk-guess-${attempt}` });
      expect([attempt, wrong.status]).toEqual([attempt, 401]);
    }
    const limited = await guesser.call("POST", "/login", { token: TEST_KEYS.alice.token });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // Another browser behind the same nginx signs in; it cannot take the guesser's place by naming it either.
    expect((await browser("127.0.0.3").login(TEST_KEYS.alice.token)).status).toBe(200);
    expect((await browser("127.0.0.3", () => "127.0.0.2").login(TEST_KEYS.bob.token)).status).toBe(200);
    expect(logs).toContain(
      `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within 60 s from 127.0.0.2: its logins are refused for 60 s`,
    );
  });

  it("limits the pages one browser's address opens, not its neighbours'", async () => {
    for (let open = 0; open < MAX_PAGE_OPENS_PER_ADDRESS; open += 1) {
      expect((await browser("127.0.0.4").call("GET", "/session")).status).toBe(200);
    }
    const refused = await browser("127.0.0.4").call("GET", "/session");
    expect([refused.status, (refused.body.error as { code?: string } | undefined)?.code]).toEqual([
      429,
      "too_many_page_opens",
    ]);
    expect((await browser("127.0.0.5").call("GET", "/session")).status).toBe(200);
  });
});
