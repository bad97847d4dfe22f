import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { readToolSearchSettings, type ToolSearchConfigValue } from "../../core/tool-search/index.js";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import type { ApprovalBroker } from "../approvals/index.js";
import type { AgentEntry, AgentSettings, ToolsiftConfig } from "../config/index.js";
import { createRunCaches, type RunCaches } from "../environment/index.js";
import { type LoadedPlugins, loadPlugins } from "../plugins/index.js";
import type {
  ConversationItem,
  Provider,
  ProviderRequest,
  ProviderResponse,
  ProviderSettings,
  ProviderTool,
} from "../providers/index.js";
import { createFileSessionStore, type SessionEvent, type SessionStore } from "../sessions/index.js";
import { createRunner } from "./create-runner.js";
import type { Runner, RunRequest } from "./types.js";

/** The provider id every harness config uses. */
export const TEST_PROVIDER_ID = "mock";
/** The model id every harness config uses. */
export const TEST_MODEL_ID = "toolsift-mock";

/** One tool of a test plugin; `body` is the JS body of `async execute(args, context)`. */
export interface TestToolSpec {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  catalogMode?: "catalog" | "direct-only";
  /** Default: returns the text `<name> ok <JSON args>`. */
  body?: string;
}

/** A plugin the harness writes to its temp dir and loads with the real loader. */
export interface TestPluginSpec {
  id: string;
  tools: TestToolSpec[];
  /** JS statements run inside `register(api)` after the tools are registered (hooks). */
  hooks?: string;
}

/** The tools most runner tests use: owned by the plugin `weather`. */
export const WEATHER_TOOLS: TestToolSpec[] = [
  {
    name: "weather_forecast",
    description: "Get the weather forecast for a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name." } },
      required: ["city"],
      additionalProperties: false,
    },
  },
  {
    name: "calendar_add_event",
    description: "Add an event with a title to the user's calendar.",
    parameters: {
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    },
  },
  {
    name: "email_send",
    description: "Send an email message to one recipient.",
    parameters: {
      type: "object",
      properties: { to: { type: "string" }, subject: { type: "string" } },
      required: ["to"],
    },
  },
];

/** The standard test plugin: the weather tools, no hooks. */
export const WEATHER_PLUGIN: TestPluginSpec = { id: "weather", tools: WEATHER_TOOLS };

/** Writes a plugin folder (manifest, ESM entry) under `root` and returns its path. */
export async function writeTestPlugin(root: string, spec: TestPluginSpec): Promise<string> {
  const dir = join(root, spec.id);
  await mkdir(dir, { recursive: true });
  const manifest = {
    id: spec.id,
    name: `Test plugin ${spec.id}`,
    version: "1.0.0",
    main: "index.js",
    tools: spec.tools.map((tool) => tool.name),
  };
  await writeFile(join(dir, "toolsift.plugin.json"), JSON.stringify(manifest, null, 2));
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  const tools = spec.tools.map((tool) => {
    const body =
      tool.body ??
      `return { content: [{ type: "text", text: ${JSON.stringify(`${tool.name} ok `)} + JSON.stringify(args) }] };`;
    return `  api.registerTool({
    name: ${JSON.stringify(tool.name)},
    description: ${JSON.stringify(tool.description)},
    parameters: ${JSON.stringify(tool.parameters ?? { type: "object", properties: {} })},
    ${tool.catalogMode ? `catalogMode: ${JSON.stringify(tool.catalogMode)},` : ""}
    async execute(args, context) {
      ${body}
    },
  });`;
  });
  const source = `export function register(api) {\n${tools.join("\n")}\n${spec.hooks ?? ""}\n}\n`;
  await writeFile(join(dir, "index.js"), source);
  return dir;
}

/** A stand-in for a hosted model: answers each request with a script, and keeps a copy of every request. */
export interface ScriptedProvider extends Provider {
  /** Copies of the requests received, oldest first (the input as it was when sent). */
  readonly requests: ProviderRequest[];
}

/** A scripted provider; `respond` gets the request and its 0-based index and returns the output items. */
export function scriptedProvider(
  respond: (request: ProviderRequest, index: number) => ConversationItem[] | Promise<ConversationItem[]>,
  id = TEST_PROVIDER_ID,
): ScriptedProvider {
  const requests: ProviderRequest[] = [];
  return {
    id,
    requests,
    async complete(request): Promise<ProviderResponse> {
      const index = requests.length;
      requests.push({ ...request, input: structuredClone([...request.input]), tools: [...request.tools] });
      const output = await respond(request, index);
      return { output, usage: { inputTokens: 10, outputTokens: 5 }, requestBytes: 100 + index };
    },
  };
}

/** A function call item. */
export function functionCall(callId: string, name: string, args: unknown): ConversationItem {
  return {
    type: "function_call",
    callId,
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
  };
}

/** An assistant message item. */
export function assistantSays(text: string): ConversationItem {
  return { type: "message", role: "assistant", text };
}

/** A user message item. */
export function userSays(text: string): ConversationItem {
  return { type: "message", role: "user", text };
}

/** What a harness is built from. */
export interface RunnerHarnessOptions {
  /** Give runs the core tools (read/write/edit/exec). Default false. */
  coreTools?: boolean;
  /** Default `openai-responses`. */
  api?: ProviderSettings["api"];
  /** `tools.toolSearch`; default unset (automatic). */
  toolSearch?: ToolSearchConfigValue;
  /** Extra `agents.defaults` keys. */
  agentDefaults?: AgentSettings;
  agentsList?: AgentEntry[];
  /** Plugins written to the temp dir and loaded; default the weather plugin. */
  plugins?: TestPluginSpec[];
  /** A scripted provider used instead of the mock over HTTP (no mock server is started then). */
  provider?: Provider;
  extraTools?: ToolDefinition[];
  /** The version the extra tools' source states (read on every run). Default: none. */
  extraToolsVersion?: () => string | number;
  /** Wraps the real file session store (to inject a write failure). */
  wrapSessions?: (store: SessionStore) => SessionStore;
  /** The caches the runner's runs share. Default: the runner's own. */
  caches?: RunCaches;
  /** The approval broker runs ask. Default: none (every call is approved). */
  approvals?: ApprovalBroker;
}

/** A runner built from real parts: the mock over HTTP, the real provider client, file sessions, plugins. */
export interface RunnerHarness {
  runner: Runner;
  sessions: SessionStore;
  config: ToolsiftConfig;
  stateDir: string;
  plugins: LoadedPlugins;
  /** Undefined when a scripted provider was given. */
  mock: MockOpenAI | undefined;
  /** Lines the runner logged. */
  logLines: string[];
  /** Runs one turn with a user message (agent `main` unless given). */
  say(sessionKey: string, text: string, extra?: Partial<RunRequest>): ReturnType<Runner["run"]>;
  /** The session's events (agent `main` unless given). */
  events(sessionKey: string, agentId?: string): Promise<SessionEvent[]>;
  /** Request bodies the mock received, parsed, oldest first. */
  mockBodies(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Builds a runner harness in a fresh temp dir; `close()` stops everything and removes the dir. */
export async function createRunnerHarness(options: RunnerHarnessOptions = {}): Promise<RunnerHarness> {
  const root = await mkdtemp(join(tmpdir(), "toolsift-runner-"));
  const stateDir = join(root, "state");
  const pluginRoot = join(root, "plugins");
  await mkdir(pluginRoot, { recursive: true });
  const mock = options.provider ? undefined : await startMockOpenAI({ port: 0 });
  try {
    const specs = options.plugins ?? [WEATHER_PLUGIN];
    for (const spec of specs) await writeTestPlugin(pluginRoot, spec);
    const config: ToolsiftConfig = {
      models: {
        providers: {
          [TEST_PROVIDER_ID]: {
            api: options.api ?? "openai-responses",
            baseUrl: mock?.baseUrl ?? "http://127.0.0.1:9/v1",
            maxRetries: 0,
          },
        },
      },
      agents: {
        defaults: { model: `${TEST_PROVIDER_ID}/${TEST_MODEL_ID}`, ...options.agentDefaults },
        ...(options.agentsList ? { list: options.agentsList } : {}),
      },
      ...(options.toolSearch === undefined ? {} : { tools: { toolSearch: options.toolSearch } }),
      plugins: { load: { paths: [pluginRoot] } },
    };
    const plugins = await loadPlugins({ paths: [pluginRoot], baseDir: root, log: () => {} });
    if (plugins.errors.length > 0) throw new Error(`test plugins failed: ${JSON.stringify(plugins.errors)}`);
    const fileStore = createFileSessionStore(stateDir);
    const sessions = options.wrapSessions ? options.wrapSessions(fileStore) : fileStore;
    const logLines: string[] = [];
    const provider = options.provider;
    const toolSearch = readToolSearchSettings(config.tools?.toolSearch).settings;
    if (!toolSearch) throw new Error(`test toolSearch is invalid: ${JSON.stringify(options.toolSearch)}`);
    const runner = createRunner({
      environment: {
        config,
        toolSearch,
        stateDir,
        configDir: root,
        env: {},
        plugins,
        sessions,
        caches: options.caches ?? createRunCaches(),
        log: (line) => logLines.push(line),
        ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
      },
      // Most runner tests reason about plugin tools alone; core tools are exercised where a test asks.
      coreTools: options.coreTools ?? false,
      ...(options.extraTools ? { extraTools: () => options.extraTools ?? [] } : {}),
      ...(provider ? { createProvider: () => provider } : {}),
      ...(options.extraToolsVersion ? { extraToolsVersion: options.extraToolsVersion } : {}),
    });
    return {
      runner,
      sessions,
      config,
      stateDir,
      plugins,
      mock,
      logLines,
      say: (sessionKey, text, extra = {}) =>
        runner.run({ agentId: "main", sessionKey, input: [userSays(text)], ...extra }),
      events: (sessionKey, agentId = "main") => sessions.read(agentId, sessionKey),
      mockBodies: () =>
        (mock?.requests() ?? []).map((request) => JSON.parse(request.body) as Record<string, unknown>),
      async close() {
        await runner.close(1_000);
        await mock?.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await mock?.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** Events of one type, narrowed. */
export function eventsOfType<Type extends SessionEvent["type"]>(
  events: readonly SessionEvent[],
  type: Type,
): Array<Extract<SessionEvent, { type: Type }>> {
  return events.filter((event): event is Extract<SessionEvent, { type: Type }> => event.type === type);
}

/** A client function tool as a request declares it. */
export function clientTool(name: string, description: string): ProviderTool {
  return {
    name,
    description,
    parameters: {
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
    },
  };
}

/** The system prompt of a recorded provider body, in either API's form. */
export function promptOf(body: Record<string, unknown>): string {
  if (typeof body.instructions === "string") return body.instructions;
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  const system = messages.find((message) => message.role === "system");
  return typeof system?.content === "string" ? system.content : "";
}

/** The declared function tool names of a recorded provider body, in either API's form. */
export function declaredNamesOf(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  return tools.map((tool) => {
    const inner = tool.function as Record<string, unknown> | undefined;
    return String(inner?.name ?? tool.name);
  });
}
