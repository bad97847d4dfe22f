import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { type CliProcess, childEnv, spawnCli, tempDir } from "./operator-safety.test-support.js";

const TOKEN = `tsg-${randomBytes(24).toString("hex")}`;
const REFUSAL = "Refusing to listen on 0.0.0.0: a non-loopback address needs gateway.auth.token";

let root: string;
let mock: MockOpenAI;

/** Writes a config file and returns `gateway --bind 0.0.0.0 --port 0 --config <file>` with its environment. */
async function gatewayArgs(
  name: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
  const configPath = join(root, `${name}.json`);
  const full = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/toolsift-mock" } },
    ...config,
  };
  await writeFile(configPath, JSON.stringify(full));
  return {
    args: ["gateway", "--bind", "0.0.0.0", "--port", "0", "--config", configPath],
    env: childEnv({ TOOLSIFT_HOME: root, TOOLSIFT_STATE_DIR: join(root, `state-${name}`), ...env }),
  };
}

beforeAll(async () => {
  root = await tempDir("auth");
  mock = await startMockOpenAI({ port: 0 });
});

afterAll(async () => {
  await mock?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Starts that refuse a non-loopback bind: nothing listens, exit code 1, a message naming the fix. */
const REFUSED_STARTS: Array<{
  probe: string;
  config: Record<string, unknown>;
  env: Record<string, string>;
  stderr: string[];
}> = [
  {
    probe: 'token "env:TOOLSIFT_GATEWAY_TOKEN" with the variable unset',
    config: { gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } } },
    env: {},
    stderr: ["config: gateway.auth.token: environment variable TOOLSIFT_GATEWAY_TOKEN is not set", REFUSAL],
  },
  {
    probe: 'token "env:TOOLSIFT_GATEWAY_TOKEN" with the variable empty',
    config: { gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } } },
    env: { TOOLSIFT_GATEWAY_TOKEN: "" },
    stderr: ["config: gateway.auth.token: environment variable TOOLSIFT_GATEWAY_TOKEN is empty", REFUSAL],
  },
  { probe: "no gateway.auth at all", config: {}, env: {}, stderr: [REFUSAL, "Or bind to 127.0.0.1."] },
];

describe("toolsift gateway (real process): a non-loopback bind without a token is refused", () => {
  it.each(REFUSED_STARTS)("--bind 0.0.0.0 with $probe: exit 1, nothing listens", async (row) => {
    const { args, env } = await gatewayArgs(`refused-${REFUSED_STARTS.indexOf(row)}`, row.config, row.env);
    const cli = spawnCli(args, env);
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toBe("");
    for (const text of row.stderr) expect(cli.stderr()).toContain(text);
    expect(cli.stderr()).not.toMatch(/\n\s+at\s/u);
  });
});

/** The answer every refused request gets, whatever was wrong. */
const UNAUTHORIZED = {
  error: {
    message: "Missing or invalid bearer token.",
    type: "invalid_request_error",
    param: null,
    code: "invalid_api_key",
  },
};

const ROUTES: Array<{ method: "GET" | "POST"; path: string; body?: unknown; ok: number }> = [
  { method: "GET", path: "/v1/tools/effective?agent=main", ok: 200 },
  { method: "GET", path: "/v1/sessions", ok: 200 },
  { method: "GET", path: "/v1/approvals", ok: 200 },
  { method: "POST", path: "/v1/responses", body: { input: "hello" }, ok: 200 },
  {
    method: "POST",
    path: "/v1/chat/completions",
    body: { messages: [{ role: "user", content: "hi" }] },
    ok: 200,
  },
  {
    method: "POST",
    path: "/v1/approvals/appr_000000000000000000000000",
    body: { decision: "allow" },
    ok: 404,
  },
  { method: "GET", path: "/v1/no-such-route", ok: 404 },
];

const CREDENTIALS: Array<{ probe: string; authorization: string | undefined; accepted: boolean }> = [
  { probe: "no Authorization header", authorization: undefined, accepted: false },
  { probe: "a wrong token", authorization: "Bearer wrong-token", accepted: false },
  {
    probe: "the token without its last character",
    authorization: `Bearer ${TOKEN.slice(0, -1)}`,
    accepted: false,
  },
  { probe: "the token with one character more", authorization: `Bearer ${TOKEN}x`, accepted: false },
  { probe: "the token under the Basic scheme", authorization: `Basic ${TOKEN}`, accepted: false },
  { probe: "the token without a scheme", authorization: TOKEN, accepted: false },
  { probe: "an empty bearer", authorization: "Bearer ", accepted: false },
  { probe: "the right token", authorization: `Bearer ${TOKEN}`, accepted: true },
  { probe: "the right token, lower-case scheme", authorization: `bearer ${TOKEN}`, accepted: true },
];

describe("toolsift gateway (real process) on 0.0.0.0 with gateway.auth.token from the environment", () => {
  let cli: CliProcess;
  let url: string;

  beforeAll(async () => {
    const { args, env } = await gatewayArgs(
      "listening",
      { gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } } },
      { TOOLSIFT_GATEWAY_TOKEN: TOKEN },
    );
    cli = spawnCli(args, env);
    const listening = await cli.listening();
    expect(listening).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/u);
    // Requests go to loopback only: the bind address is what is tested, not the network.
    url = listening.replace("0.0.0.0", "127.0.0.1");
  });

  afterAll(async () => {
    if (cli) expect(await cli.stop()).toBe(0);
  });

  it("answers /healthz without a token", async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, providers: { mock: expect.any(String) } });
  });

  it.each(CREDENTIALS)(
    "$probe: every other route is refused unless the token is right",
    async (credential) => {
      for (const route of ROUTES) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (credential.authorization !== undefined) headers.authorization = credential.authorization;
        const response = await fetch(`${url}${route.path}`, {
          method: route.method,
          headers,
          ...(route.body === undefined ? {} : { body: JSON.stringify(route.body) }),
        });
        const text = await response.text();
        const where = `${route.method} ${route.path} with ${credential.probe}`;
        if (credential.accepted) {
          expect(response.status, `${where}: ${text}`).toBe(route.ok);
        } else {
          expect(response.status, `${where}: ${text}`).toBe(401);
          expect(response.headers.get("www-authenticate"), where).toBe("Bearer");
          expect(JSON.parse(text), where).toEqual(UNAUTHORIZED);
        }
        expect(text.includes(TOKEN), `${where}: the answer quotes the token`).toBe(false);
      }
    },
  );

  it("ran the accepted requests and logged every refusal without the token", () => {
    const log = cli.stderr();
    expect(log).toContain(
      "gateway auth: every route but /healthz requires Authorization: Bearer <gateway.auth.token>",
    );
    expect(log).toMatch(/POST \/v1\/responses 401 \d+ms/u);
    expect(log).toMatch(/POST \/v1\/responses 200 \d+ms/u);
    expect(log.includes(TOKEN)).toBe(false);
  });
});
