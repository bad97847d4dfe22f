import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { CLI_ENTRY } from "../../src/dev/qa/start-gateway-process.js";
import type { AgentEntry } from "../../src/runtime/config/index.js";
import { createCoreTools } from "../../src/runtime/core-tools/index.js";
import { type TestPluginSpec, writeTestPlugin } from "../../src/runtime/runner/runner.test-support.js";
import {
  type GatewayUnderTest,
  gatewayInProcess,
  gatewayProcess,
  getPath,
  postResponse,
  sessionFileEvents,
  sessionFileLines,
  tempDir,
  writeConfig,
} from "./operator-safety.test-support.js";
import { callThenAnswer, type ScriptedModel, startScriptedModel } from "./scripted-model.test-support.js";

/** Plugin tools of this file: each records that it ran in `<root>/ran/<name>`. */
const PLUGIN_TOOLS: Record<string, { plugin: string; description: string; param: string }> = {
  weather_forecast: { plugin: "weather", description: "Get the weather forecast for a city.", param: "city" },
  weather_alerts: {
    plugin: "weather",
    description: "List severe weather alerts for a region.",
    param: "region",
  },
  email_send: { plugin: "mail", description: "Send an email message to one recipient.", param: "to" },
  email_archive: {
    plugin: "mail",
    description: "Archive an email thread by its subject line.",
    param: "subject",
  },
};

/** The core tools' descriptions, as the runner creates them. */
const CORE_DESCRIPTIONS = new Map(
  createCoreTools({ workspace: "/nonexistent-workspace" }).map((tool) => [tool.name, tool.description ?? ""]),
);

/** One row: an agent of the case's gateway, the tools its policy must keep out, and one it must admit. */
interface PolicyRow {
  agent: string;
  denied: string[];
  allowed: string;
  /** What the allowed tool's answer shows. */
  allowedAnswer: RegExp;
}

/** One gateway configuration (one selector kind) and its rows. */
interface PolicyCase {
  selector: string;
  via: "process" | "in-process";
  tools: Record<string, unknown>;
  agents?: AgentEntry[];
  rows: PolicyRow[];
  /** Also let a scripted model name a denied tool directly, by id and in tool_describe (agent `guesser`). */
  guesser?: boolean;
}

const ranAnswer = (name: string) => new RegExp(`Done\\. ${name} ok \\{`, "u");
const CREATED_QA = /Done\. Created "qa" \(2 bytes\)\./u;

const CASES: PolicyCase[] = [
  {
    selector: 'exact name (tools.deny: ["email_send"])',
    via: "process",
    tools: { deny: ["email_send"] },
    rows: [
      {
        agent: "main",
        denied: ["email_send"],
        allowed: "email_archive",
        allowedAnswer: ranAnswer("email_archive"),
      },
    ],
    guesser: true,
  },
  {
    selector: 'exact name in directory mode (tools.deny: ["email_send"], toolSearch.mode "directory")',
    via: "in-process",
    tools: { deny: ["email_send"], toolSearch: { mode: "directory" } },
    rows: [
      {
        agent: "main",
        denied: ["email_send"],
        allowed: "email_archive",
        allowedAnswer: ranAnswer("email_archive"),
      },
    ],
    guesser: true,
  },
  {
    selector: 'glob (tools.deny: ["weather_*"])',
    via: "in-process",
    tools: { deny: ["weather_*"] },
    rows: [
      {
        agent: "main",
        denied: ["weather_forecast", "weather_alerts"],
        allowed: "email_send",
        allowedAnswer: ranAnswer("email_send"),
      },
    ],
  },
  {
    selector: 'group:fs (tools.deny: ["group:fs"])',
    via: "in-process",
    tools: { deny: ["group:fs"] },
    rows: [
      {
        agent: "main",
        denied: ["write", "read", "edit"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
    ],
  },
  {
    selector: 'group:runtime (tools.deny: ["group:runtime"])',
    via: "process",
    tools: { deny: ["group:runtime"] },
    rows: [{ agent: "main", denied: ["exec"], allowed: "write", allowedAnswer: CREATED_QA }],
  },
  {
    selector: 'group:plugins (tools.deny: ["group:plugins"])',
    via: "in-process",
    tools: { deny: ["group:plugins"] },
    rows: [
      {
        agent: "main",
        denied: ["email_send", "weather_forecast", "weather_alerts", "email_archive"],
        allowed: "write",
        allowedAnswer: CREATED_QA,
      },
    ],
  },
  {
    selector: 'plugin:<id> (tools.deny: ["plugin:mail"])',
    via: "process",
    tools: { deny: ["plugin:mail"] },
    rows: [
      {
        agent: "main",
        denied: ["email_send", "email_archive"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
    ],
  },
  {
    selector: 'id (tools.deny: ["native:weather:weather_alerts"])',
    via: "in-process",
    tools: { deny: ["native:weather:weather_alerts"] },
    rows: [
      {
        agent: "main",
        denied: ["weather_alerts"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
    ],
  },
  {
    selector: 'profile (tools.profile: "minimal")',
    via: "in-process",
    tools: { profile: "minimal" },
    rows: [
      {
        agent: "main",
        denied: ["read", "write", "edit", "exec"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
    ],
  },
  {
    selector: 'allow list (tools.allow: ["weather_forecast", "group:fs"])',
    via: "in-process",
    tools: { allow: ["weather_forecast", "group:fs"] },
    rows: [
      {
        agent: "main",
        denied: ["email_send", "weather_alerts", "exec"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
    ],
  },
  {
    selector: 'agents.list widening a global deny, and sandbox.tools narrowing (tools.deny: ["email_send"])',
    via: "process",
    tools: { deny: ["email_send"] },
    agents: [
      {
        id: "widener",
        tools: {
          allow: ["email_send", "weather_*"],
          alsoAllow: ["email_send", "native:mail:email_send", "plugin:mail", "group:plugins"],
        },
      },
      {
        id: "boxed",
        tools: { allow: ["weather_*", "email_archive"] },
        sandbox: { tools: { allow: ["weather_forecast", "email_send"], alsoAllow: ["email_send"] } },
      },
    ],
    rows: [
      {
        agent: "widener",
        denied: ["email_send"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
      {
        agent: "boxed",
        denied: ["weather_alerts", "email_archive", "email_send"],
        allowed: "weather_forecast",
        allowedAnswer: ranAnswer("weather_forecast"),
      },
    ],
  },
];

/** The id and description of a tool: they appear only where the tool itself went. */
function identity(name: string): { id: string; description: string } {
  const plugin = PLUGIN_TOOLS[name];
  if (plugin) return { id: `native:${plugin.plugin}:${name}`, description: plugin.description };
  const description = CORE_DESCRIPTIONS.get(name);
  if (description === undefined) throw new Error(`no such test tool: ${name}`);
  return { id: `native:core:${name}`, description: description.slice(0, 60) };
}

/**
 * Strings that show a tool was present: its id, its description, its directory line, its name as a JSON
 * string, and (for names that are not English words, like `email_send`) the bare name.
 */
function traces(name: string): string[] {
  const { id, description } = identity(name);
  const found = [id, description, `- ${name} (`, `"${name}"`];
  if (name.includes("_")) found.push(name);
  return found;
}

/** Plugins whose tools write `<ranDir>/<name>` when they run. */
function plugins(ranDir: string): TestPluginSpec[] {
  const byPlugin = new Map<string, TestPluginSpec>();
  for (const [name, tool] of Object.entries(PLUGIN_TOOLS)) {
    const spec = byPlugin.get(tool.plugin) ?? { id: tool.plugin, tools: [] };
    spec.tools.push({
      name,
      description: tool.description,
      parameters: {
        type: "object",
        properties: { [tool.param]: { type: "string" } },
        required: [tool.param],
        additionalProperties: false,
      },
      body: `const fs = await import("node:fs");
      fs.mkdirSync(${JSON.stringify(ranDir)}, { recursive: true });
      fs.writeFileSync(${JSON.stringify(join(ranDir, name))}, JSON.stringify(args));
      return { content: [{ type: "text", text: ${JSON.stringify(`${name} ok `)} + JSON.stringify(args) }] };`,
    });
    byPlugin.set(tool.plugin, spec);
  }
  return [...byPlugin.values()];
}

function parsedBodies(mock: MockOpenAI, after: number): Array<Record<string, unknown>> {
  return mock
    .requests()
    .filter((request) => request.cursor > after)
    .map((request) => JSON.parse(request.body) as Record<string, unknown>);
}

function lastCursor(mock: MockOpenAI): number {
  return mock.requests().at(-1)?.cursor ?? 0;
}

function expectNoTraces(where: string, text: string, names: readonly string[]): void {
  for (const name of names) {
    for (const trace of traces(name)) {
      expect(text.includes(trace), `${where} shows the denied tool ${name} (${JSON.stringify(trace)})`).toBe(
        false,
      );
    }
  }
}

/** Request bodies the provider got: the denied tools are in neither the declared tools nor the prompt. */
function expectAbsentFromProvider(bodies: Array<Record<string, unknown>>, denied: readonly string[]): void {
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    const declared = (body.tools as Array<{ name: string }>).map((tool) => tool.name);
    for (const name of denied) expect(declared).not.toContain(name);
    expectNoTraces("the declared tools", JSON.stringify(body.tools), denied);
    expect(typeof body.instructions).toBe("string");
    expectNoTraces("the system prompt (directory)", String(body.instructions), denied);
    const outputs = (body.input as Array<Record<string, unknown>>).filter(
      (item) => item.type === "function_call_output",
    );
    for (const output of outputs)
      expectNoTraces("a tool result", withoutQueryEcho(String(output.output)), denied);
  }
}

/**
 * A search that found nothing repeats the model's own query words (`unmatchedWords`, the hint): that echo
 * confirms the absence and is left out; its candidates and the catalog words it suggests stay checked.
 */
function withoutQueryEcho(output: string): string {
  return JSON.stringify(searchCandidates(output)) ?? output;
}

/** The candidates (and suggested catalog words) of a `tool_search` answer; other outputs as they are. */
function searchCandidates(output: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    return output;
  }
  if (Array.isArray(parsed)) return parsed;
  const results = (parsed as { results?: unknown }).results;
  if (!Array.isArray(results)) return parsed;
  return results.map((group: { candidates?: unknown; noMatch?: { suggestions?: unknown } }) => ({
    candidates: group.candidates,
    suggestions: group.noMatch?.suggestions,
  }));
}

describe.each(CASES)("policy keeps denied tools out of everything: $selector", (policyCase) => {
  let root: string;
  let stateDir: string;
  let workspace: string;
  let ranDir: string;
  let mock: MockOpenAI;
  let scripted: ScriptedModel;
  let gateway: GatewayUnderTest;

  beforeAll(async () => {
    expect(existsSync(CLI_ENTRY), "these tests drive the built CLI: run `npm run build` first").toBe(true);
    root = await tempDir("policy");
    stateDir = join(root, "state");
    workspace = join(root, "workspace");
    ranDir = join(root, "ran");
    const pluginRoot = join(root, "plugins");
    await mkdir(pluginRoot, { recursive: true });
    for (const spec of plugins(ranDir)) await writeTestPlugin(pluginRoot, spec);
    mock = await startMockOpenAI({ port: 0 });
    scripted = await startScriptedModel(callThenAnswer([]));
    const agents: AgentEntry[] = [...(policyCase.agents ?? [])];
    if (policyCase.guesser) agents.push({ id: "guesser", model: "scripted/model" });
    const { configPath, env } = await writeConfig(root, stateDir, {
      models: {
        providers: {
          mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key", maxRetries: 0 },
          scripted: { api: "openai-responses", baseUrl: scripted.baseUrl, apiKey: "mock-key", maxRetries: 0 },
        },
      },
      agents: { defaults: { model: "mock/toolsift-mock", workspace }, list: agents },
      tools: policyCase.tools,
      plugins: { load: { paths: [pluginRoot] } },
    });
    gateway =
      policyCase.via === "process"
        ? await gatewayProcess(configPath, env)
        : await gatewayInProcess(configPath, env);
  });

  afterAll(async () => {
    await gateway?.stop();
    await mock?.close();
    await scripted?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.each(policyCase.rows)(
    "agent $agent: $denied absent from catalog, directory, provider request, effective surface and session log; $allowed works",
    async (row) => {
      const target = row.denied[0] as string;
      const deniedSession = `denied-${row.agent}`;
      const allowedSession = `allowed-${row.agent}`;
      // Markers are per row: another agent of the same gateway may run these tools legitimately.
      await rm(ranDir, { recursive: true, force: true });

      // The model is asked for the denied tool: it is not declared, so the mock searches for it.
      const before = lastCursor(mock);
      const denied = await postResponse(gateway.url, {
        input: `Please use target=${target}`,
        session: deniedSession,
        agent: row.agent,
      });
      expect(denied.status, denied.raw).toBe(200);
      expect(denied.text).not.toContain(`${target} ok`);
      const deniedBodies = parsedBodies(mock, before);
      expectAbsentFromProvider(deniedBodies, row.denied);

      // The catalog: the search the run made for the denied tool found nothing by that name.
      const deniedEvents = await sessionFileEvents(stateDir, row.agent, deniedSession);
      const searches = deniedEvents.filter(
        (event) => event.type === "tool-result" && event.name === "tool_search",
      );
      expect(searches.length).toBe(1);
      const answer = searchCandidates(String(searches[0]?.output));
      const candidates = (
        Array.isArray(answer) && answer[0]?.candidates !== undefined ? answer[0].candidates : answer
      ) as Array<{ id: string; name: string }>;
      expect(Array.isArray(candidates)).toBe(true);
      for (const name of row.denied) {
        expect(candidates.map((candidate) => candidate.name)).not.toContain(name);
        expect(candidates.map((candidate) => candidate.id)).not.toContain(identity(name).id);
      }

      // The allowed tool of the same config still works.
      const beforeAllowed = lastCursor(mock);
      const allowed = await postResponse(gateway.url, {
        input: `Please use target=${row.allowed}`,
        session: allowedSession,
        agent: row.agent,
      });
      expect(allowed.status, allowed.raw).toBe(200);
      expect(allowed.text).toMatch(row.allowedAnswer);
      expectAbsentFromProvider(parsedBodies(mock, beforeAllowed), row.denied);

      // The effective surface.
      const effective = await getPath(gateway.url, `/v1/tools/effective?agent=${row.agent}`);
      expect(effective.status).toBe(200);
      const surface = effective.body as { tools: Array<{ name: string }>; declaredTools: string[] };
      expect(surface.tools.map((tool) => tool.name)).toContain(row.allowed);
      for (const name of row.denied) {
        expect(surface.tools.map((tool) => tool.name)).not.toContain(name);
        expect(surface.declaredTools).not.toContain(name);
      }
      expectNoTraces("GET /v1/tools/effective", effective.raw, row.denied);

      // Every line of both session logs on disk. The user's text and the model's own words (its search
      // query, its answer) name the denied tool; no other line may, and no line shows its id or description.
      for (const session of [deniedSession, allowedSession]) {
        const lines = await sessionFileLines(stateDir, row.agent, session);
        expect(lines.length).toBeGreaterThan(3);
        for (const line of lines) {
          const type = (JSON.parse(line) as { type: string }).type;
          if (type === "user-input" || type === "assistant-output") {
            for (const name of row.denied) {
              const { id, description } = identity(name);
              expect(line).not.toContain(id);
              expect(line).not.toContain(description);
            }
          } else {
            const event = JSON.parse(line) as { type: string; name?: string; output?: unknown };
            const shown =
              event.type === "tool-result" && event.name === "tool_search"
                ? JSON.stringify({ ...event, output: withoutQueryEcho(String(event.output)) })
                : line;
            expectNoTraces(`session log line ${line}`, shown, row.denied);
          }
        }
      }

      // Nothing denied ran.
      for (const name of row.denied) expect(existsSync(join(ranDir, name)), `${name} ran`).toBe(false);
      if (row.denied.includes("write")) expect(existsSync(join(workspace, "qa"))).toBe(false);
    },
  );

  if (!policyCase.guesser) return;
  it("a model naming the denied tool directly, by id in tool_call, or in tool_describe reaches nothing", async () => {
    scripted.setScript(
      callThenAnswer([
        { type: "function_call", name: "email_send", arguments: { to: "guess@example.com" } },
        {
          type: "function_call",
          name: "tool_call",
          arguments: { id: "native:mail:email_send", args: { to: "guess@example.com" } },
        },
        { type: "function_call", name: "tool_call", arguments: { id: "email_send", args: { to: "x@y.z" } } },
        { type: "function_call", name: "tool_describe", arguments: { id: "native:mail:email_send" } },
      ]),
    );
    const answer = await postResponse(gateway.url, {
      input: "send the mail",
      session: "guesser",
      agent: "guesser",
    });
    expect(answer.status, answer.raw).toBe(200);
    const events = await sessionFileEvents(stateDir, "guesser", "guesser");
    const results = events.filter((event) => event.type === "tool-result");
    expect(results.map((event) => event.name)).toEqual([
      "email_send",
      "tool_call",
      "tool_call",
      "tool_describe",
    ]);
    for (const result of results) {
      expect(result.isError, String(result.output)).toBe(true);
      expect(String(result.output)).toMatch(/Unknown tool/u);
      expect(String(result.output)).not.toContain("Send an email message");
    }
    expect(events.some((event) => event.type === "target-activity")).toBe(false);
    expect(existsSync(join(ranDir, "email_send"))).toBe(false);
    // The scripted model, too, was never shown the tool.
    for (const raw of scripted.bodies()) {
      const body = JSON.parse(raw) as Record<string, unknown>;
      expectNoTraces("the guesser's declared tools", JSON.stringify(body.tools), ["email_send"]);
      expectNoTraces("the guesser's system prompt", String(body.instructions), ["email_send"]);
    }
  });
});
