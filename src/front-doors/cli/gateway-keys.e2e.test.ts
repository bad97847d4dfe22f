import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI, { AuthenticationError, NotFoundError, PermissionDeniedError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import type { PendingApproval } from "../../runtime/approvals/index.js";
import type { RunningGateway } from "./gateway-command.js";
import { startConfiguredGateway } from "./start-configured-gateway.js";

// The configured gateway (real runner, real file store, a plugin tool that needs approval) on 127.0.0.1,
// with keys from the environment, driven by the official `openai` client; the provider is the mock.

const TOKENS = {
  ALICE_TOKEN: "tsk-e2e-alice-5f4e3d2c1b0a99887766554433221100",
  BOB_TOKEN: "tsk-e2e-bob-00112233445566778899aabbccddeeff",
  READER_TOKEN: "tsk-e2e-reader-abcdefabcdefabcdefabcdefabcdef",
  OPS_TOKEN: "tsk-e2e-ops-99999999888888887777777766666666",
};

let root: string;
let mock: MockOpenAI;
let running: RunningGateway;
let marker: string;
const lines: string[] = [];

async function writeMarkerPlugin(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = {
    id: "marker",
    name: "Marker",
    version: "1.0.0",
    main: "index.js",
    tools: ["touch_marker"],
  };
  await writeFile(join(dir, "toolsift.plugin.json"), JSON.stringify(manifest));
  await writeFile(
    join(dir, "index.js"),
    `import { appendFileSync } from "node:fs";
export function register(api) {
  api.registerTool({ name: "touch_marker", description: "Appends a line to the marker file.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    execute: async () => { appendFileSync(${JSON.stringify(marker)}, "ran\\n"); return { content: [{ type: "text", text: "marked" }] }; } });
}
`,
  );
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-keys-e2e-"));
  marker = join(root, "marker.txt");
  mock = await startMockOpenAI();
  await writeMarkerPlugin(join(root, "plugin"));
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    plugins: { load: { paths: [join(root, "plugin")] } },
    tools: { toolSearch: false, approval: { require: ["touch_marker"], timeoutMs: 600_000 } },
    gateway: {
      auth: {
        keys: [
          { id: "alice", token: "env:ALICE_TOKEN", scopes: ["runs", "sessions:read", "approvals"] },
          { id: "bob", token: "env:BOB_TOKEN", scopes: ["runs", "sessions:read", "approvals"] },
          { id: "reader", token: "env:READER_TOKEN", scopes: ["sessions:read"] },
          { id: "ops", token: "env:OPS_TOKEN", scopes: ["admin"] },
        ],
      },
    },
  };
  const configPath = join(root, "toolsift.json");
  await writeFile(configPath, JSON.stringify(config));
  running = await startConfiguredGateway({ configPath, port: 0 }, (line) => lines.push(line), {
    TOOLSIFT_STATE_DIR: join(root, "state"),
    TOOLSIFT_HOME: root,
    ...TOKENS,
  });
});

afterAll(async () => {
  await running?.stop();
  await mock?.close();
  await rm(root, { recursive: true, force: true });
});

const client = (token: string) => new OpenAI({ baseURL: `${running.url}/v1`, apiKey: token, maxRetries: 0 });

async function approvalsOf(token: string): Promise<PendingApproval[]> {
  const response = await fetch(`${running.url}/v1/approvals`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { approvals: PendingApproval[] }).approvals;
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("the request succeeded"),
    (error: unknown) => error,
  );
}

describe("keys and scopes through the official openai client, on the configured gateway", () => {
  it("keeps alice's conversation, stored response and approval away from bob; admin sees all", async () => {
    const alice = client(TOKENS.ALICE_TOKEN);
    const bob = client(TOKENS.BOB_TOKEN);
    const first = await alice.responses.create(
      { model: "toolsift", input: "alice's secret is pelican-17" },
      { headers: { "x-toolsift-session": "notes" } },
    );
    expect(first.status).toBe("completed");

    // bob cannot read or continue it: 404, as for an id that does not exist.
    expect(await errorOf(bob.responses.retrieve(first.id))).toBeInstanceOf(NotFoundError);
    expect(
      await errorOf(
        bob.responses.create({ model: "toolsift", input: "go on", previous_response_id: first.id }),
      ),
    ).toBeInstanceOf(NotFoundError);
    expect((await alice.responses.retrieve(first.id)).id).toBe(first.id);

    // bob naming alice's session gets his own: the model never sees her turns in his run.
    const before = mock.requests().length;
    const { response: raw } = await bob.responses
      .create(
        { model: "toolsift", input: "bob asks about notes" },
        { headers: { "x-toolsift-session": "notes" } },
      )
      .withResponse();
    expect(raw.headers.get("x-toolsift-session")).toBe("notes");
    const bobsProviderRequests = mock.requests().slice(before);
    expect(bobsProviderRequests.length).toBeGreaterThan(0);
    for (const request of bobsProviderRequests) expect(request.body).not.toContain("pelican-17");

    // A key without `runs` is refused by the client as PermissionDeniedError; a wrong key as AuthenticationError.
    expect(
      await errorOf(client(TOKENS.READER_TOKEN).responses.create({ model: "toolsift", input: "x" })),
    ).toBeInstanceOf(PermissionDeniedError);
    expect(await errorOf(client("tsk-wrong").models.list())).toBeInstanceOf(AuthenticationError);

    // The session logs: one per key, each header naming the key that opened it.
    const sessionsDir = join(root, "state", "agents", "main", "sessions");
    const aliceHeader = JSON.parse(
      (await readFile(join(sessionsDir, "alice.notes.jsonl"), "utf8")).split("\n")[0] ?? "",
    );
    const bobHeader = JSON.parse(
      (await readFile(join(sessionsDir, "bob.notes.jsonl"), "utf8")).split("\n")[0] ?? "",
    );
    expect(aliceHeader).toMatchObject({ type: "session", sessionKey: "alice.notes", keyId: "alice" });
    expect(bobHeader).toMatchObject({ type: "session", sessionKey: "bob.notes", keyId: "bob" });

    // An approval of alice's run records her key: bob sees nothing, admin sees it with its owner, alice decides.
    const held = alice.responses.create(
      { model: "toolsift", input: "please target=touch_marker" },
      { headers: { "x-toolsift-session": "marking" } },
    );
    let pending: PendingApproval[] = [];
    for (let attempt = 0; attempt < 2000 && pending.length === 0; attempt += 1) {
      pending = await approvalsOf(TOKENS.ALICE_TOKEN);
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(pending).toEqual([
      expect.objectContaining({ toolName: "touch_marker", keyId: "alice", sessionKey: "marking" }),
    ]);
    expect(await approvalsOf(TOKENS.BOB_TOKEN)).toEqual([]);
    const refused = await fetch(`${running.url}/v1/approvals/${pending[0]?.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKENS.BOB_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ decision: "allow" }),
    });
    expect(refused.status).toBe(404);
    expect(existsSync(marker)).toBe(false);
    expect(await approvalsOf(TOKENS.OPS_TOKEN)).toEqual([
      expect.objectContaining({ id: pending[0]?.id, keyId: "alice", sessionKey: "alice.marking" }),
    ]);
    const decided = await fetch(`${running.url}/v1/approvals/${pending[0]?.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKENS.ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ decision: "allow" }),
    });
    expect(decided.status).toBe(200);
    expect((await held).status).toBe("completed");
    expect(await readFile(marker, "utf8")).toBe("ran\n");

    // Admin lists every session with the key whose namespace holds it.
    const listed = (await (
      await fetch(`${running.url}/v1/sessions`, { headers: { authorization: `Bearer ${TOKENS.OPS_TOKEN}` } })
    ).json()) as { data: Array<{ sessionKey: string; owner: string | null }> };
    expect(Object.fromEntries(listed.data.map((session) => [session.sessionKey, session.owner]))).toEqual({
      "alice.notes": "alice",
      "alice.marking": "alice",
      "bob.notes": "bob",
    });
  });

  it("writes no token into the gateway log or any session log", async () => {
    const logged = lines.join("\n");
    expect(logged).toContain(
      "gateway auth: every route but /healthz requires one of the keys alice, bob, reader, ops (gateway.auth)",
    );
    const sessionsDir = join(root, "state", "agents", "main", "sessions");
    const files = await readdir(sessionsDir);
    expect(files.length).toBeGreaterThan(0);
    const sessionText = (
      await Promise.all(files.map((file) => readFile(join(sessionsDir, file), "utf8")))
    ).join("\n");
    for (const token of Object.values(TOKENS)) {
      expect(logged).not.toContain(token);
      expect(sessionText).not.toContain(token);
    }
  });
});
