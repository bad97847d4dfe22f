export { MAX_PLUGIN_TOOLS } from "./limits.js";
export { loadPlugins } from "./load-plugins.js";
export { pluginBeforeToolCall } from "./plugin-before-tool-call.js";
export { PLUGIN_MANIFEST_FILE } from "./read-plugin-manifest.js";
export { runBeforePromptHooks } from "./run-before-prompt-hooks.js";
export type { BeforeToolCallEvent, LoadedPlugins, PluginLogEntry, RunHooksOptions } from "./types.js";
