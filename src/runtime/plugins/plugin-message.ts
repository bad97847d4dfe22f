import { safeRead } from "../../shared/schema/index.js";
import { MAX_PLUGIN_MESSAGE_CHARS } from "./limits.js";
import type { PluginLogEntry } from "./types.js";

/** A bounded one-line-safe string; longer text ends with `...`. */
export function boundMessage(text: string): string {
  return text.length > MAX_PLUGIN_MESSAGE_CHARS ? `${text.slice(0, MAX_PLUGIN_MESSAGE_CHARS)}...` : text;
}

/** The message of anything plugin code threw, read without trusting it, bounded; never throws. */
export function pluginMessage(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "object" || typeof value === "function") {
    const message = value === null ? undefined : safeRead(value, "message");
    text = typeof message === "string" ? message : "";
  } else {
    try {
      text = String(value);
    } catch {
      text = "";
    }
  }
  return boundMessage(text.length > 0 ? text : "unknown error");
}

/** Writes one plugin log line to stderr (the default log of loadPlugins and the hook runners). */
export function writePluginLog(entry: PluginLogEntry): void {
  process.stderr.write(`[plugin ${entry.pluginId}] ${entry.level}: ${boundMessage(entry.message)}\n`);
}
