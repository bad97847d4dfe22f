import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { type GatewayProcess, startGatewayProcess } from "../../dev/qa/start-gateway-process.js";
import type { ApprovalBroker } from "../../runtime/approvals/index.js";
import type { AuthKey } from "../../runtime/http-guard/index.js";
import { createFileSessionStore, type SessionStore } from "../../runtime/sessions/index.js";
import { createGateway } from "./create-gateway.js";
import { FakeRunner } from "./fake-runner.test-support.js";
import type { Gateway } from "./types.js";

/** A gateway over real HTTP on 127.0.0.1 with an ephemeral port, a FakeRunner and a real file store. */
export type TestGateway = {
  url: string;
  gateway: Gateway;
  runner: FakeRunner;
  sessions: SessionStore;
  logs: string[];
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
};

/**
 * Starts a test gateway, cleaned up (server closed, temp dir removed) when the test finishes. `approvals` is
 * handed to both the gateway and the FakeRunner (its `exec:<command>` runs wait on it).
 */
export async function startTestGateway(
  options: {
    maxBodyBytes?: number;
    authToken?: string;
    authKeys?: AuthKey[];
    approvals?: ApprovalBroker;
    /** The FakeRunner tells its events to `onEvent` (default: it only returns its result). */
    emitEvents?: boolean;
    maxQueuedPerSession?: number;
    allowOrigins?: string[];
    hostedTools?: "omit" | "reject";
    console?: boolean;
  } = {},
): Promise<TestGateway> {
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-gateway-"));
  const sessions = createFileSessionStore(stateDir);
  const runner = new FakeRunner(sessions, {
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.emitEvents === true ? { emitEvents: true } : {}),
  });
  const logs: string[] = [];
  const gateway = createGateway({
    runner,
    sessions,
    log: (line) => logs.push(line),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.authToken === undefined ? {} : { authToken: options.authToken }),
    ...(options.authKeys === undefined ? {} : { authKeys: options.authKeys }),
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.maxQueuedPerSession === undefined
      ? {}
      : { maxQueuedPerSession: options.maxQueuedPerSession }),
    ...(options.allowOrigins === undefined ? {} : { allowOrigins: options.allowOrigins }),
    ...(options.hostedTools === undefined ? {} : { hostedTools: options.hostedTools }),
    ...(options.console === undefined ? {} : { console: options.console }),
  });
  const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  onTestFinished(async () => {
    await listener.close();
    await rm(stateDir, { recursive: true, force: true });
  });
  const url = listener.url;
  return {
    url,
    gateway,
    runner,
    sessions,
    logs,
    post: (path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
  };
}

/** The parsed JSON of an error response, asserting its OpenAI shape and that it carries no stack trace. */
export async function errorOf(
  response: Response,
): Promise<{ message: string; type: string; param: string | null; code: string | null }> {
  const text = await response.text();
  if (/\n\s+at\s|\.js:\d+:\d+|\.ts:\d+:\d+/u.test(text))
    throw new Error(`stack trace in error body: ${text}`);
  const body = JSON.parse(text) as {
    error?: { message: string; type: string; param: string | null; code: string | null };
  };
  if (body.error === undefined || typeof body.error.message !== "string") {
    throw new Error(`not an OpenAI error object: ${text}`);
  }
  return body.error;
}

/**
 * Writes `config` as `<home>/toolsift.json` and starts `toolsift gateway --port 0` (the built CLI) on it, with
 * TOOLSIFT_HOME at `home` and its state in `stateDir`.
 */
export async function startGatewayOnConfig(
  home: string,
  stateDir: string,
  config: unknown,
): Promise<GatewayProcess> {
  const configPath = join(home, "toolsift.json");
  await writeFile(configPath, JSON.stringify(config));
  return startGatewayProcess({
    configPath,
    env: { ...process.env, TOOLSIFT_HOME: home, TOOLSIFT_STATE_DIR: stateDir, TOOLSIFT_CONFIG: configPath },
  });
}
