export {
  DEFAULT_PLUGIN_MAIN,
  MAX_PLUGIN_TOOLS,
  PLUGIN_HOOK_TIMEOUT_MS,
  PLUGIN_MANIFEST_FILE,
  PLUGIN_REGISTER_TIMEOUT_MS,
} from "./limits.js";
export { loadPlugins } from "./load-plugins.js";
export { type ManifestResult, readPluginManifest } from "./read-plugin-manifest.js";
export { pluginBeforeToolCall, runBeforePromptHooks, runBeforeToolCallHooks } from "./run-plugin-hooks.js";
export type {
  BeforePromptEvent,
  BeforePromptResult,
  BeforeToolCallEvent,
  LoadedPlugins,
  LoadPluginsOptions,
  PluginApi,
  PluginHook,
  PluginInfo,
  PluginLoadError,
  PluginLogEntry,
  PluginLogger,
  PluginManifest,
  RunHooksOptions,
  SkippedPlugin,
} from "./types.js";
