import { afterEach, expect, test } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import {
  assistantSays,
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
  scriptedProvider,
  WEATHER_TOOLS,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** A core coding primitive and a tool attributed to an MCP server, as the host adds them. */
const EXTRA_TOOLS: ToolDefinition[] = [
  {
    name: "read",
    description: "Read a file inside the workspace.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    origin: { kind: "core" },
    execute: async () => text("file contents"),
  },
  {
    name: "calendar_list",
    description: "List upcoming calendar events.",
    parameters: { type: "object", properties: {} },
    origin: { kind: "mcp", owner: "calendar" },
    execute: async () => text("no events"),
  },
];

const PINNED_PLUGIN = {
  id: "pinned",
  tools: [
    { name: "reply_now", description: "Reply to the user at once.", catalogMode: "direct-only" as const },
  ],
};

test("effectiveSurface lists every admitted tool with its visibility, the declared tools and the directory", async () => {
  harness = await createRunnerHarness({
    toolSearch: { mode: "tools" },
    extraTools: EXTRA_TOOLS,
    plugins: [{ id: "weather", tools: WEATHER_TOOLS }, PINNED_PLUGIN],
  });
  const surface = await harness.runner.effectiveSurface("main");
  expect(surface.agentId).toBe("main");
  expect(surface.toolSearch).toEqual({ enabled: true, mode: "tools" });
  // Plugins load in folder-name order ("pinned" before "weather"), then the host's extra tools.
  expect(surface.tools).toEqual([
    {
      id: "native:pinned:reply_now",
      name: "reply_now",
      source: "native",
      owner: "pinned",
      visibility: "direct-only",
    },
    {
      id: "native:weather:weather_forecast",
      name: "weather_forecast",
      source: "native",
      owner: "weather",
      visibility: "catalog",
    },
    {
      id: "native:weather:calendar_add_event",
      name: "calendar_add_event",
      source: "native",
      owner: "weather",
      visibility: "catalog",
    },
    {
      id: "native:weather:email_send",
      name: "email_send",
      source: "native",
      owner: "weather",
      visibility: "catalog",
    },
    { id: "native:core:read", name: "read", source: "native", owner: "core", visibility: "direct" },
    {
      id: "mcp:calendar:calendar_list",
      name: "calendar_list",
      source: "mcp",
      owner: "calendar",
      visibility: "catalog",
    },
  ]);
  expect(surface.declaredTools).toEqual(["tool_search", "tool_describe", "tool_call", "read", "reply_now"]);
  expect(surface.directory).toContain("### Deferred Tool Schemas");
  expect(surface.directory).toContain("- weather_forecast (weather)");
  expect(surface.directory).not.toContain("reply_now");

  // The surface is what a run really gets.
  const provider = scriptedProvider(() => [assistantSays("hi")]);
  await harness.close();
  harness = await createRunnerHarness({
    provider,
    toolSearch: { mode: "tools" },
    extraTools: EXTRA_TOOLS,
    plugins: [{ id: "weather", tools: WEATHER_TOOLS }, PINNED_PLUGIN],
  });
  await harness.say("surface-run", "hello");
  expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual(surface.declaredTools);
  expect(provider.requests[0]?.instructions).toContain(surface.directory ?? "(none)");
});

test("with Tool Search off every admitted tool is direct, direct-only tools stay direct-only, no directory", async () => {
  harness = await createRunnerHarness({
    toolSearch: false,
    extraTools: EXTRA_TOOLS,
    plugins: [{ id: "weather", tools: WEATHER_TOOLS }, PINNED_PLUGIN],
  });
  const surface = await harness.runner.effectiveSurface("main");
  expect(surface.toolSearch.enabled).toBe(false);
  expect(surface.tools.map((tool) => [tool.name, tool.visibility])).toEqual([
    ["reply_now", "direct-only"],
    ["weather_forecast", "direct"],
    ["calendar_add_event", "direct"],
    ["email_send", "direct"],
    ["read", "direct"],
    ["calendar_list", "direct"],
  ]);
  expect(surface.declaredTools).toEqual([
    "reply_now",
    "weather_forecast",
    "calendar_add_event",
    "email_send",
    "read",
    "calendar_list",
  ]);
  expect(surface.directory).toBeUndefined();
});

test("effectiveSurface follows each agent's harness and mode", async () => {
  harness = await createRunnerHarness({
    toolSearch: { mode: "directory" },
    agentsList: [
      { id: "coder", harness: "codex" },
      { id: "pilot", harness: "copilot" },
    ],
  });
  const main = await harness.runner.effectiveSurface("main");
  expect(main.toolSearch).toEqual({ enabled: true, mode: "directory" });
  expect(main.directory).toContain("may be called directly by that name");

  const pilot = await harness.runner.effectiveSurface("pilot");
  expect(pilot.toolSearch).toEqual({ enabled: true, mode: "tools" });

  const coder = await harness.runner.effectiveSurface("coder");
  expect(coder.agentId).toBe("coder");
  expect(coder.declaredTools).not.toContain("tool_search");
});

test("under Code Mode effectiveSurface reports what a run declares: exec, wait and the direct-only tools", async () => {
  const setup = {
    toolSearch: { mode: "tools" as const },
    extraTools: EXTRA_TOOLS,
    plugins: [{ id: "weather", tools: WEATHER_TOOLS }, PINNED_PLUGIN],
    agentsList: [{ id: "coder", harness: "codex" as const }],
  };
  harness = await createRunnerHarness(setup);
  harness.config.codeMode = { enabled: true, timeoutMs: 5_000 };
  const surface = await harness.runner.effectiveSurface("main");
  expect(surface.codeMode).toEqual({ enabled: true });
  expect(surface.toolSearch.enabled).toBe(false);
  expect(surface.declaredTools).toEqual(["exec", "wait", "reply_now"]);
  expect(surface.directory).toBeUndefined();
  // Every catalog tool is reached inside a cell (tools.search, tools.call); direct-only ones stay declared.
  expect(surface.tools.map((tool) => [tool.name, tool.visibility])).toEqual([
    ["reply_now", "direct-only"],
    ["weather_forecast", "catalog"],
    ["calendar_add_event", "catalog"],
    ["email_send", "catalog"],
    ["read", "catalog"],
    ["calendar_list", "catalog"],
  ]);
  // The codex harness keeps its own surface: no Code Mode, and the field is absent.
  const coder = await harness.runner.effectiveSurface("coder");
  expect(coder.codeMode).toBeUndefined();
  expect(coder.declaredTools).not.toContain("exec");
  // The search box agrees: Tool Search is off for a Code Mode agent.
  expect((await harness.runner.searchTools?.({ agentId: "main", query: "weather" }))?.toolSearch).toEqual(
    surface.toolSearch,
  );

  // The surface is what a run really gets, down to exec's description (limits and quick index).
  const provider = scriptedProvider(() => [assistantSays("hi")]);
  await harness.close();
  harness = await createRunnerHarness({ ...setup, provider });
  harness.config.codeMode = { enabled: true, timeoutMs: 5_000 };
  await harness.say("code-mode-surface", "hello");
  const declared = provider.requests[0]?.tools ?? [];
  expect(declared.map((tool) => tool.name)).toEqual(surface.declaredTools);
  expect(declared.find((tool) => tool.name === "exec")?.description).toContain("5000 ms");
  expect(provider.requests[0]?.instructions).not.toContain("### Deferred Tool Schemas");
}, 60_000);

test("agentIds lists main first and every configured agent once", async () => {
  harness = await createRunnerHarness({
    agentsList: [{ id: "helper" }, { id: "main", instructions: "Main agent." }, { id: "coder" }],
  });
  expect(harness.runner.agentIds()).toEqual(["main", "helper", "coder"]);
});

test("an unknown agent is refused with CONFIG_INVALID, for a run and for its surface", async () => {
  harness = await createRunnerHarness({ agentsList: [{ id: "helper" }] });
  const refusal = await harness.runner
    .run({ agentId: "ghost", sessionKey: "s", input: [{ type: "message", role: "user", text: "hi" }] })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(isToolsiftError(refusal) && refusal.code).toBe("CONFIG_INVALID");
  expect(isToolsiftError(refusal) && refusal.message).toContain("agents.list");
  await expect(harness.runner.effectiveSurface("ghost")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  expect(await harness.sessions.list()).toEqual([]);
});

test("close waits for in-flight runs before it resolves", async () => {
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  const inProvider = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const provider = scriptedProvider(async () => {
    arrived();
    await gate;
    return [assistantSays("finished")];
  });
  harness = await createRunnerHarness({ provider });
  const order: string[] = [];
  const running = harness.runner.run({
    agentId: "main",
    sessionKey: "draining",
    input: [{ type: "message", role: "user", text: "hi" }],
  });
  void running.then(() => order.push("run"));
  await inProvider;
  const closing = harness.runner.close(60_000).then(() => order.push("close"));
  release();
  await closing;
  expect(order).toEqual(["run", "close"]);
  expect((await running).status).toBe("completed");
  expect(eventsOfType(await harness.events("draining"), "run-summary")).toHaveLength(1);
});
