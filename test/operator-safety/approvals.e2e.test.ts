import { existsSync } from "node:fs";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import {
  type GatewayAnswer,
  type GatewayUnderTest,
  gatewayProcess,
  getPath,
  pollFor,
  postResponse,
  sessionFileEvents,
  tempDir,
  writeConfig,
} from "./operator-safety.test-support.js";

/**
 * The mock model calls `exec` with `{ command: "qa" }`. The gateway's PATH starts with a folder holding a
 * `qa` script, so that command has an observable side effect: it prints QA_EXEC_RAN and creates a marker
 * file in the workspace (the command's working directory).
 */
const QA_SCRIPT = '#!/bin/sh\necho "QA_EXEC_RAN"\ntouch qa-exec.marker\n';
const MARKER = "qa-exec.marker";
const RAN = /^Done\. Exit code 0\.\nQA_EXEC_RAN/u;

type ApprovalConfig = { require: string[]; mode: "ask" | "allow" | "deny"; timeoutMs?: number };
type Pending = {
  id: string;
  toolId: string;
  toolName: string;
  args: unknown;
  agentId: string;
  sessionKey: string;
};

let mock: MockOpenAI;
let root: string;

beforeAll(async () => {
  root = await tempDir("approvals");
  const bin = join(root, "bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "qa"), QA_SCRIPT);
  await chmod(join(bin, "qa"), 0o755);
  mock = await startMockOpenAI({ port: 0 });
});

afterAll(async () => {
  await mock?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A gateway process with `tools.approval` set; its workspace and state live under `<root>/<name>`. */
function useGateway(name: string, approval: ApprovalConfig) {
  const context = { gateway: undefined as GatewayUnderTest | undefined, workspace: "", stateDir: "" };
  beforeAll(async () => {
    const home = join(root, name);
    context.workspace = join(home, "workspace");
    context.stateDir = join(home, "state");
    await mkdir(context.workspace, { recursive: true });
    const { configPath, env } = await writeConfig(home, context.stateDir, {
      models: {
        providers: {
          mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key", maxRetries: 0 },
        },
      },
      agents: { defaults: { model: "mock/toolsift-mock", workspace: context.workspace } },
      tools: { approval },
    });
    env.PATH = `${join(root, "bin")}:${process.env.PATH ?? ""}`;
    context.gateway = await gatewayProcess(configPath, env);
  });
  afterAll(async () => {
    await context.gateway?.stop();
  });
  return {
    get url(): string {
      if (!context.gateway) throw new Error("the gateway did not start");
      return context.gateway.url;
    },
    marker: () => existsSync(join(context.workspace, MARKER)),
    /** Rows of one gateway share its workspace: a row expecting no run removes an earlier row's marker. */
    clearMarker: () => rm(join(context.workspace, MARKER), { force: true }),
    execResult: async (session: string) => {
      const events = await sessionFileEvents(context.stateDir, "main", session);
      return events.find((event) => event.type === "tool-result" && event.name === "exec");
    },
    log: () => context.gateway?.log() ?? "",
  };
}

async function pendingApprovals(url: string): Promise<Pending[]> {
  const listed = await getPath(url, "/v1/approvals");
  expect(listed.status).toBe(200);
  return (listed.body as { approvals: Pending[] }).approvals;
}

async function decide(url: string, id: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/v1/approvals/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Starts a `target=exec` run and returns it with the approval request it published. */
async function execWaitingForApproval(
  url: string,
  session: string,
): Promise<{ run: Promise<GatewayAnswer>; pending: Pending }> {
  const run = postResponse(url, { input: "Run it: target=exec", session });
  const pending = await pollFor("the exec call to wait for approval", async () => {
    const list = await pendingApprovals(url);
    return list.find((item) => item.sessionKey === session);
  });
  return { run, pending };
}

describe('tools.approval mode "ask" (timeoutMs 60000): an operator decides through the gateway', () => {
  const gateway = useGateway("ask", { require: ["exec"], mode: "ask", timeoutMs: 60_000 });

  it("publishes the waiting exec call; allow lets it run and the run completes with its output", async () => {
    const { run, pending } = await execWaitingForApproval(gateway.url, "ask-allow");
    expect(pending).toMatchObject({
      toolId: "native:core:exec",
      toolName: "exec",
      args: { command: "qa" },
      agentId: "main",
      sessionKey: "ask-allow",
    });
    expect(pending.id).toMatch(/^appr_[0-9a-f]{24}$/u);
    expect(gateway.marker()).toBe(false);

    expect(await decide(gateway.url, pending.id, { decision: "allow" })).toEqual({
      status: 200,
      body: { id: pending.id, decision: "allow" },
    });
    const answer = await run;
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toMatch(RAN);
    expect(gateway.marker()).toBe(true);
    expect(await pendingApprovals(gateway.url)).toEqual([]);
    // A decided request cannot be decided again.
    expect((await decide(gateway.url, pending.id, { decision: "deny" })).status).toBe(404);
    const result = await gateway.execResult("ask-allow");
    expect(result?.isError).toBe(false);
    expect(String(result?.output)).toContain("QA_EXEC_RAN");
  });

  it("deny blocks the call: the model gets a blocked result with the note, and exec never ran", async () => {
    await gateway.clearMarker();
    const { run, pending } = await execWaitingForApproval(gateway.url, "ask-deny");
    expect(
      (await decide(gateway.url, pending.id, { decision: "deny", note: "not on a Friday" })).status,
    ).toBe(200);
    const answer = await run;
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toMatch(/blocked/u);
    expect(answer.text).toContain("denied by the operator: not on a Friday");
    expect(answer.text).not.toContain("QA_EXEC_RAN");
    expect(gateway.marker()).toBe(false);
    const result = await gateway.execResult("ask-deny");
    expect(result?.isError).toBe(true);
    expect(String(result?.output)).toBe(
      'Tool "native:core:exec" was blocked: denied by the operator: not on a Friday',
    );
  });

  it("a tool not listed in require runs without waiting", async () => {
    const answer = await postResponse(gateway.url, { input: "target=write", session: "ask-write" });
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toBe('Done. Created "qa" (2 bytes).');
    expect(await pendingApprovals(gateway.url)).toEqual([]);
  });

  it("refuses a malformed decision and an unknown id without settling anything", async () => {
    expect((await decide(gateway.url, "appr_000000000000000000000000", { decision: "allow" })).status).toBe(
      404,
    );
    const { run, pending } = await execWaitingForApproval(gateway.url, "ask-bad-decision");
    expect((await decide(gateway.url, pending.id, { decision: "yes" })).status).toBe(400);
    expect((await pendingApprovals(gateway.url)).map((item) => item.id)).toEqual([pending.id]);
    expect((await decide(gateway.url, pending.id, { decision: "deny" })).status).toBe(200);
    expect((await run).text).toMatch(/blocked/u);
  });
});

describe('tools.approval mode "ask" with a short timeoutMs: no decision is a denial', () => {
  const gateway = useGateway("ask-timeout", { require: ["exec"], mode: "ask", timeoutMs: 400 });

  it("times out, blocks the call, and exec never ran", async () => {
    const answer = await postResponse(gateway.url, { input: "target=exec", session: "timeout" });
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toMatch(/blocked: no approval decision within 400 ms/u);
    expect(gateway.marker()).toBe(false);
    expect(await pendingApprovals(gateway.url)).toEqual([]);
    expect((await gateway.execResult("timeout"))?.isError).toBe(true);
    expect(gateway.log()).toMatch(/approval appr_[0-9a-f]{24} timed out: exec/u);
  });
});

describe('tools.approval mode "deny": every listed call is blocked without asking', () => {
  const gateway = useGateway("deny", { require: ["exec"], mode: "deny" });

  it("blocks exec at once and publishes nothing", async () => {
    const answer = await postResponse(gateway.url, { input: "target=exec", session: "deny" });
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toMatch(/blocked: approval mode is deny/u);
    expect(gateway.marker()).toBe(false);
    expect(await pendingApprovals(gateway.url)).toEqual([]);
    expect((await gateway.execResult("deny"))?.isError).toBe(true);
  });
});

describe('tools.approval mode "allow": listed calls run without asking', () => {
  const gateway = useGateway("allow", { require: ["exec"], mode: "allow" });

  it("runs exec at once and publishes nothing", async () => {
    const answer = await postResponse(gateway.url, { input: "target=exec", session: "allow" });
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.text).toMatch(RAN);
    expect(gateway.marker()).toBe(true);
    expect(await pendingApprovals(gateway.url)).toEqual([]);
    expect(gateway.log()).not.toMatch(/approval appr_/u);
  });
});
