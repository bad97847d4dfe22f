export { MAX_PLUGIN_TOOLS, PLUGIN_HOOK_TIMEOUT_MS, PLUGIN_REGISTER_TIMEOUT_MS } from "./limits.js";
export { loadPlugins } from "./load-plugins.js";
export { pluginBeforeToolCall } from "./plugin-before-tool-call.js";
export {
  DEFAULT_PLUGIN_MAIN,
  type ManifestResult,
  PLUGIN_MANIFEST_FILE,
  readPluginManifest,
} from "./read-plugin-manifest.js";
export { runBeforePromptHooks } from "./run-before-prompt-hooks.js";
export { runBeforeToolCallHooks } from "./run-before-tool-call-hooks.js";
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
