import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTestPlugin } from "../../src/runtime/runner/runner.test-support.js";
import {
  type GatewayUnderTest,
  gatewayProcess,
  getPath,
  listFiles,
  pollFor,
  postResponse,
  tempDir,
  writeConfig,
} from "./operator-safety.test-support.js";
import { answeredCalls, type ScriptedModel, startScriptedModel } from "./scripted-model.test-support.js";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Every secret of this file, by where it comes from; none may be written anywhere under the state dir. */
const SECRETS = {
  openAiKey: `sk-proj-${hex(20)}`,
  bearerToken: `abc${hex(4)}.def${hex(4)}.ghi${hex(4)}`,
  password: `pw-${hex(8)}`,
  token: `tk-${hex(8)}`,
  secret: `sc-${hex(8)}`,
  apiKey: `ak-${hex(8)}`,
  providerKey: `provider-key-${hex(8)}`,
  echoingProviderKey: `echo-provider-key-${hex(8)}`,
  gatewayToken: `gateway-token-${hex(12)}`,
};

/** The arguments the scripted model passes to the vault tool, through tool_call. */
const VAULT_ARGS = {
  password: SECRETS.password,
  token: SECRETS.token,
  secret: SECRETS.secret,
  apiKey: SECRETS.apiKey,
  note: `use ${SECRETS.openAiKey} with Authorization: Bearer ${SECRETS.bearerToken}`,
};

/** A tool that echoes every argument back: as JSON, as assignments, and the key and header as they are. */
const VAULT_TOOL_BODY = `return {
  content: [
    { type: "text", text: "vault_store received " + JSON.stringify(args) },
    { type: "text", text: "stored password=" + args.password + " token: " + args.token + " secret=" + args.secret + " apiKey=" + args.apiKey },
    { type: "text", text: "client key " + args.note.split(" ")[1] + " and header Authorization: Bearer " + args.note.split(" ").at(-1) },
  ],
};`;

describe("secrets never reach the state directory or the gateway log", () => {
  let root: string;
  let stateDir: string;
  let model: ScriptedModel;
  let gateway: GatewayUnderTest;
  let stderr = "";
  const authorizations: string[] = [];

  beforeAll(async () => {
    root = await tempDir("secrets");
    const home = join(root, "home");
    stateDir = join(root, "state");
    const pluginRoot = join(root, "plugins");
    await mkdir(home, { recursive: true });
    await writeTestPlugin(pluginRoot, {
      id: "vault",
      tools: [
        {
          name: "vault_store",
          description: "Store credentials in the team vault.",
          parameters: {
            type: "object",
            properties: {
              password: { type: "string" },
              token: { type: "string" },
              secret: { type: "string" },
              apiKey: { type: "string" },
              note: { type: "string" },
            },
            required: ["password", "token", "secret", "apiKey", "note"],
            additionalProperties: false,
          },
          body: VAULT_TOOL_BODY,
        },
        {
          name: "vault_audit",
          description: "Audit a token against the upstream vault.",
          parameters: {
            type: "object",
            properties: { token: { type: "string" } },
            required: ["token"],
            additionalProperties: false,
          },
        },
      ],
      // A careless hook: its error quotes the call's token, a bearer header, and a key from its environment.
      hooks: `api.log.info("vault ready: key " + process.env.SAFETY_PROVIDER_KEY + ", Bearer " + ${JSON.stringify(SECRETS.bearerToken)});
      api.on("before_tool_call", (event) => {
        if (event.toolName !== "vault_audit") return;
        throw new Error("upstream refused token " + event.args.token + " (sent Authorization: Bearer " +
          ${JSON.stringify(SECRETS.bearerToken)} + ", key " + process.env.SAFETY_PROVIDER_KEY + ")");
      });`,
    });
    // A plugin that fails to load, quoting the credentials it found in its environment.
    await writeTestPlugin(pluginRoot, {
      id: "broken",
      tools: [],
      hooks: `throw new Error("cannot reach the vault with key " + process.env.SAFETY_PROVIDER_KEY +
        " as " + process.env.SAFETY_GATEWAY_TOKEN);`,
    });
    model = await startScriptedModel((turn) => {
      authorizations.push(turn.authorization);
      // The "echo" provider is an OpenAI-compatible server that quotes the key it was sent when refusing it.
      if (turn.authorization === `Bearer ${SECRETS.echoingProviderKey}`) {
        return { status: 401, message: `Incorrect API key provided: ${SECRETS.echoingProviderKey}.` };
      }
      const answered = answeredCalls(turn);
      if (answered.length === 0) {
        return {
          output: [
            {
              type: "function_call",
              name: "tool_call",
              arguments: { id: "native:vault:vault_store", args: VAULT_ARGS },
            },
            {
              type: "function_call",
              name: "tool_call",
              arguments: { id: "native:vault:vault_audit", args: { token: SECRETS.token } },
            },
          ],
        };
      }
      // The model repeats what the tool said, and names the password in its own words.
      const said = answered.map((call) => call.output).join("\n");
      return { output: [{ type: "message", text: `Stored. The password was ${SECRETS.password}. ${said}` }] };
    });
    const { configPath, env } = await writeConfig(home, stateDir, {
      models: {
        providers: {
          x: {
            api: "openai-responses",
            baseUrl: model.baseUrl,
            apiKey: "env:SAFETY_PROVIDER_KEY",
            maxRetries: 0,
          },
          echo: {
            api: "openai-responses",
            baseUrl: model.baseUrl,
            apiKey: SECRETS.echoingProviderKey,
            maxRetries: 0,
          },
        },
      },
      agents: {
        defaults: { model: "x/model", workspace: join(stateDir, "workspace") },
        list: [{ id: "echo", model: "echo/model" }],
      },
      tools: { approval: { require: ["vault_store"], mode: "ask", timeoutMs: 60_000 } },
      plugins: { load: { paths: [pluginRoot] } },
      gateway: { auth: { token: "env:SAFETY_GATEWAY_TOKEN" } },
    });
    env.SAFETY_PROVIDER_KEY = SECRETS.providerKey;
    env.SAFETY_GATEWAY_TOKEN = SECRETS.gatewayToken;
    gateway = await gatewayProcess(configPath, env);
  });

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("runs a tool whose arguments and output carry secrets; the approval request shows them redacted", async () => {
    const run = postResponse(gateway.url, {
      input: "Store the team credentials.",
      session: "secrets",
      token: SECRETS.gatewayToken,
    });
    const auth = `Bearer ${SECRETS.gatewayToken}`;
    const pending = await pollFor("the vault call to wait for approval", async () => {
      const listed = await getPath(gateway.url, "/v1/approvals", auth);
      return (listed.body as { approvals?: Array<{ id: string; args: unknown }> }).approvals?.[0];
    });
    expect(pending.args).toMatchObject({
      password: "[REDACTED]",
      token: "[REDACTED]",
      secret: "[REDACTED]",
      apiKey: "[REDACTED]",
    });
    expectNoSecret("GET /v1/approvals", JSON.stringify(pending));
    const decided = await fetch(`${gateway.url}/v1/approvals/${pending.id}`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ decision: "allow" }),
    });
    expect(decided.status).toBe(200);

    const answer = await run;
    expect(answer.status, answer.raw).toBe(200);
    // The secrets really flowed: the client gets the tool's echo back unredacted (it is the client's data).
    expect(answer.text).toContain(SECRETS.password);
    expect(answer.text).toContain(SECRETS.openAiKey);
    // The audit call was blocked by its failing hook, whose message quoted secrets.
    expect(answer.text).toContain(
      'Tool "native:vault:vault_audit" was blocked: before_tool_call hook of plugin "vault" failed: upstream refused token',
    );
    // The gateway sent the configured provider key to the provider.
    expect(authorizations).toEqual([`Bearer ${SECRETS.providerKey}`, `Bearer ${SECRETS.providerKey}`]);

    const session = await getPath(gateway.url, "/v1/sessions/secrets?agent=main", auth);
    expect(session.status).toBe(200);
    expect(session.raw).toContain("[REDACTED]");
    expectNoSecret("GET /v1/sessions/secrets", session.raw);
  });

  it("a provider that quotes the configured key in its error does not get it logged", async () => {
    const answer = await postResponse(gateway.url, {
      input: "hello",
      session: "echo-key",
      agent: "echo",
      token: SECRETS.gatewayToken,
    });
    expect(answer.status).toBe(424); // the provider refused its key: provider_auth_failed, not retried
    expect(answer.text).toContain('Provider "echo" failed with HTTP 401');
    expectNoSecret("the HTTP error", answer.raw);
  });

  it("after the gateway stops, no file under the state directory and no line of its log holds a secret", async () => {
    await gateway.stop();
    stderr = gateway.log();
    expect(stderr).toContain("POST /v1/responses 200");
    expect(stderr).toContain("plugin vault hook failed");
    expect(stderr).toContain("plugin broken skipped: ");
    expect(stderr).toContain("[plugin vault] info: vault ready: key [REDACTED], Bearer [REDACTED]");
    expectNoSecret("the gateway log (stderr)", stderr);

    const files = await listFiles(stateDir);
    const sessionFiles = files.filter((file) => file.endsWith(".jsonl"));
    expect(sessionFiles.map((file) => file.slice(stateDir.length))).toEqual(
      expect.arrayContaining(["/agents/main/sessions/secrets.jsonl", "/agents/echo/sessions/echo-key.jsonl"]),
    );
    for (const file of files) expectNoSecret(file, await readFile(file, "utf8"));
    const log = await readFile(join(stateDir, "agents", "main", "sessions", "secrets.jsonl"), "utf8");
    // The log did record the calls, with the secrets redacted.
    expect(log).toContain('"type":"target-activity"');
    expect(log).toContain("vault_store");
    expect(log).toContain("[REDACTED]");
  });
});

function expectNoSecret(where: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(text.includes(value), `${where} holds the secret ${name}:\n${text}`).toBe(false);
  }
}
