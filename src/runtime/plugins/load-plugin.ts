import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { safeRead } from "../../shared/schema/index.js";
import { createPluginApi, type PluginRegistration } from "./create-plugin-api.js";
import { pluginMessage } from "./plugin-message.js";
import { PLUGIN_MANIFEST_FILE } from "./read-plugin-manifest.js";
import { resolvePluginEntry } from "./resolve-plugin-entry.js";
import type { PluginInfo, PluginLogEntry, PluginManifest } from "./types.js";
import { TimedOut, withTimeout } from "./with-timeout.js";

/** A loaded plugin with what it registered, or why it was not loaded. */
export type PluginLoadOutcome =
  | { ok: true; info: PluginInfo; registration: PluginRegistration }
  | { ok: false; message: string };

type RegisterFunction = { fn: (...args: unknown[]) => unknown; self: unknown };

/** `export function register`, `export default function`, or `export default { register }`. */
function registerOf(module: unknown): RegisterFunction | undefined {
  const named = safeRead(module, "register");
  if (typeof named === "function") return { fn: named as RegisterFunction["fn"], self: module };
  const fallback = safeRead(module, "default");
  if (typeof fallback === "function") return { fn: fallback as RegisterFunction["fn"], self: undefined };
  const nested = safeRead(fallback, "register");
  if (typeof nested === "function") return { fn: nested as RegisterFunction["fn"], self: fallback };
  return undefined;
}

/**
 * Imports one plugin's entry (inside its folder, see resolvePluginEntry) and runs its `register(api)`,
 * both within `timeoutMs`. Any failure (entry missing or outside the folder, an import that throws, no
 * `register` export, `register` throwing, rejecting or running late) is returned as a message naming the
 * plugin and the fix; whatever it registered is discarded. Never throws.
 */
export async function loadPlugin(options: {
  dir: string;
  manifest: PluginManifest;
  config: unknown;
  log: (entry: PluginLogEntry) => void;
  timeoutMs: number;
}): Promise<PluginLoadOutcome> {
  const { dir, manifest } = options;
  const label = `Plugin "${manifest.id}" (${dir})`;
  const resolved = await resolvePluginEntry(dir, manifest.main);
  if (!resolved.ok) return { ok: false, message: `${label}: ${resolved.message}` };
  const registration = createPluginApi({ manifest, config: options.config, log: options.log });
  let phase: "import" | "register" = "import";
  try {
    await withTimeout(async () => {
      const module: unknown = await import(pathToFileURL(resolved.entry).href);
      const register = registerOf(module);
      if (!register) {
        throw new MissingRegister(
          `${resolved.entry} does not export a register(api) function; add "export function register(api) { ... }" (main in ${join(dir, PLUGIN_MANIFEST_FILE)}).`,
        );
      }
      phase = "register";
      await Reflect.apply(register.fn, register.self, [registration.api]);
    }, options.timeoutMs);
  } catch (error) {
    registration.close();
    if (error instanceof MissingRegister) return { ok: false, message: `${label}: ${error.message}` };
    if (error instanceof TimedOut) {
      return {
        ok: false,
        message: `${label} did not finish loading within ${error.timeoutMs} ms (${phase === "import" ? "importing its entry" : "register() still running"}); make register() finish quickly and do slow work lazily.`,
      };
    }
    return phase === "import"
      ? {
          ok: false,
          message: `${label}: importing ${resolved.entry} failed: ${pluginMessage(error)}. Check that the entry is an ES module that Node can load.`,
        }
      : { ok: false, message: `${label}: register() failed: ${pluginMessage(error)}` };
  }
  registration.close();
  return {
    ok: true,
    registration,
    info: {
      id: manifest.id,
      name: manifest.name,
      version: manifest.version,
      dir,
      tools: registration.tools.map((tool) => tool.name),
    },
  };
}

class MissingRegister extends Error {}
