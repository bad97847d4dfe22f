import type { EntrySource, ToolDefinition } from "../../core/catalog/index.js";
import type { BeforeToolCallResult } from "../../core/execution/index.js";

/** A validated `toolsift.plugin.json`. */
export interface PluginManifest {
  id: string;
  name: string;
  version: string;
  /** The ES module entry, relative to the plugin folder. Default `index.js`. */
  main: string;
  /** The tool names the plugin may register. Default `[]` (a hooks-only plugin). */
  tools: string[];
  /** JSON Schema for `plugins.entries.<id>.config`. */
  configSchema?: unknown;
}

/** A plugin that loaded. */
export interface PluginInfo {
  id: string;
  name: string;
  version: string;
  /** The plugin folder (absolute). */
  dir: string;
  /** Names of the tools it registered, in registration order. */
  tools: string[];
}

/** What a `before_tool_call` hook sees about a call. */
export type BeforeToolCallEvent = {
  toolName: string;
  toolId: string;
  source: EntrySource;
  /** The arguments as rewritten by earlier hooks (a copy: changing it in place changes nothing). */
  args: unknown;
  agentId: string;
  sessionKey: string;
};

/** What a `before_prompt` hook sees before the final prompt of a run is sent. */
export type BeforePromptEvent = {
  agentId: string;
  sessionKey: string;
  /** The user's input text of this turn. */
  input: string;
  /** The tools on the planned surface. */
  tools: Array<{ id: string; name: string }>;
};

/** A `before_prompt` hook's answer: narrow the surface to these tool names, or nothing. */
export type BeforePromptResult = { toolsAllow?: string[] } | undefined;

/** One registered hook, tagged with its plugin. */
export interface PluginHook<Event, Result> {
  readonly pluginId: string;
  readonly handler: (event: Event) => Result | Promise<Result>;
}

/** A plugin or path that failed to load (reported, skipped, never thrown). */
export interface PluginLoadError {
  pluginId?: string;
  /** The plugin folder, path entry or manifest concerned. */
  path: string;
  message: string;
}

/** A plugin left out on purpose (not in `plugins.allow`). */
export interface SkippedPlugin {
  id: string;
  dir: string;
  reason: string;
}

/** Everything loadPlugins found. */
export interface LoadedPlugins {
  plugins: PluginInfo[];
  /** Tools of every loaded plugin, in load order; origin is always `{ kind: "plugin", owner: <id> }`. */
  tools: ToolDefinition[];
  /** Hooks in load order (registration order within a plugin). */
  hooks: {
    beforeToolCall: PluginHook<BeforeToolCallEvent, BeforeToolCallResult>[];
    beforePrompt: PluginHook<BeforePromptEvent, BeforePromptResult>[];
  };
  errors: PluginLoadError[];
  skipped: SkippedPlugin[];
}

/** A plugin's log. */
export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** One line a plugin logged (or the loader logged about it). */
export interface PluginLogEntry {
  pluginId: string;
  level: "info" | "warn";
  message: string;
}

/** What `register(api)` receives. */
export interface PluginApi {
  readonly id: string;
  /** `plugins.entries.<id>.config`, validated against `configSchema` (defaults applied) when both exist. */
  readonly config: unknown;
  /** Adds a tool; throws unless its name is declared in the manifest's `tools` and not yet registered. */
  registerTool(definition: ToolDefinition): void;
  /** Adds a hook; throws for an unknown event name or a handler that is not a function. */
  on(
    event: "before_tool_call",
    handler: (event: BeforeToolCallEvent) => BeforeToolCallResult | Promise<BeforeToolCallResult>,
  ): void;
  on(
    event: "before_prompt",
    handler: (event: BeforePromptEvent) => BeforePromptResult | Promise<BeforePromptResult>,
  ): void;
  readonly log: PluginLogger;
}

/** Options of loadPlugins. */
export interface LoadPluginsOptions {
  /** `plugins.load.paths`: plugin folders, or folders of plugin folders, resolved against `baseDir`. */
  paths: string[];
  /** `plugins.allow`: when non-empty, only these ids load. Default: every plugin found. */
  allow?: string[];
  /** The config file's directory. */
  baseDir: string;
  /** `plugins.entries`: per-plugin config. */
  entries?: Record<string, { config?: unknown }>;
  /** Where plugin log lines go. Default: stderr, one `[plugin <id>] <level>: <message>` line each. */
  log?: (entry: PluginLogEntry) => void;
  /** Budget of one plugin's import plus `register`. Default PLUGIN_REGISTER_TIMEOUT_MS. */
  registerTimeoutMs?: number;
}

/** Options of the hook runners. */
export interface RunHooksOptions {
  /** Budget of one hook. Default PLUGIN_HOOK_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Told about a hook that threw, timed out or answered nonsense. Default: a stderr line. */
  onHookError?: (report: { pluginId: string; message: string }) => void;
}
