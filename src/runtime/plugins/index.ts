export { MAX_PLUGIN_TOOLS } from "./limits.js";
export { loadPlugins } from "./load-plugins.js";
export { PLUGIN_MANIFEST_FILE } from "./read-plugin-manifest.js";
export { pluginBeforeToolCall, runBeforePromptHooks } from "./run-plugin-hooks.js";
export type { BeforeToolCallEvent, LoadedPlugins, PluginLogEntry, RunHooksOptions } from "./types.js";
