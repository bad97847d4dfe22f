import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { type AssembledRuntime, assembleRuntime } from "../cli/assemble-runtime.js";
import { consoleClient } from "../console/console-client.test-support.js";
import { frameReader, postChat } from "./console-chat.test-support.js";
import { createGateway } from "./create-gateway.js";
import { ALL_TEST_KEYS, authorizationOf, TEST_KEYS } from "./gateway-keys.test-support.js";
import type { GatewayListener } from "./types.js";

// With the chat's safety-net re-read an hour apart, only the broker's change feed (and the read at a call's
// start) can bring the chat its approval and its closing: each frame arriving at all is the proof.
vi.mock("./limits.js", async (original) => ({
  ...(await original<typeof import("./limits.js")>()),
  CHAT_APPROVALS_REREAD_MS: 3_600_000,
}));

const QUESTION = "What is the weather in Berlin tomorrow? target=get_forecast";
const EXAMPLE_PLUGINS = fileURLToPath(new URL("../../../examples/plugins", import.meta.url));

let root: string;
let mock: MockOpenAI;
let runtime: AssembledRuntime;
let first: GatewayListener;
let second: GatewayListener;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-console-chat-wake-"));
  mock = await startMockOpenAI({ port: 0 });
  const configPath = join(root, "toolsift.json");
  await writeFile(
    configPath,
    JSON.stringify({
      models: {
        providers: {
          mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key", maxRetries: 0 },
        },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [EXAMPLE_PLUGINS] } },
      tools: { approval: { require: ["get_forecast"], mode: "ask", timeoutMs: 60_000 } },
    }),
  );
  runtime = await assembleRuntime({ configPath, env: { TOOLSIFT_STATE_DIR: join(root, "state") } });
  // Two gateways over one state and one approval ledger, as a fleet's gateways share them.
  const gateway = () =>
    createGateway({
      runner: runtime.runner,
      sessions: runtime.environment.sessions,
      authKeys: ALL_TEST_KEYS,
      approvals: runtime.environment.approvals,
      log: () => {},
    });
  first = await gateway().listen({ port: 0, host: "127.0.0.1" });
  second = await gateway().listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await runtime?.close();
  await mock?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the console chat's approvals, pushed", () => {
  it("an approval reaches the chat without a re-read, and a decision made through another gateway's API closes it", async () => {
    const alice = consoleClient(first.url);
    const login = await alice.login(TEST_KEYS.alice.token);
    const response = await postChat(
      first.url,
      { cookie: alice.cookie, csrf: login.body.csrf },
      { agent: "main", session: "pushed", input: QUESTION },
    );
    expect(response.status).toBe(200);
    const read = frameReader(response);
    const approval = await read.until((frame) => frame.type === "approval");
    expect(approval).toMatchObject({ type: "approval", toolName: "get_forecast" });
    const id = approval.type === "approval" ? approval.id : "";
    const decided = await fetch(`${second.url}/v1/approvals/${id}`, {
      method: "POST",
      headers: { ...authorizationOf("alice"), "content-type": "application/json" },
      body: JSON.stringify({ decision: "allow" }),
    });
    expect(decided.status).toBe(200);
    expect(await read.until((frame) => frame.type === "approval-closed")).toEqual({
      type: "approval-closed",
      id,
    });
    const result = await read.until((frame) => frame.type === "result" && frame.name === "tool_call");
    expect(result).toMatchObject({ isError: false });
    expect(await read.until((frame) => frame.type === "end")).toMatchObject({
      type: "end",
      status: "completed",
    });
    expect(read.frames.filter((frame) => frame.type === "approval")).toHaveLength(1);
    expect(read.frames.filter((frame) => frame.type === "approval-closed")).toHaveLength(1);
  });
});
