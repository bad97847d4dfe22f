import { readdir, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { compareCodeUnits } from "../../core/catalog/index.js";
import { pluginMessage } from "./plugin-message.js";
import { PLUGIN_MANIFEST_FILE } from "./read-plugin-manifest.js";
import type { PluginLoadError } from "./types.js";

/** Plugin folders found, in load order, and the path entries that could not be used. */
export interface FoundPluginDirs {
  dirs: string[];
  errors: PluginLoadError[];
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The plugin folders one `plugins.load.paths` entry names, in folder name order. */
async function dirsOf(path: string): Promise<string[]> {
  const info = await stat(path);
  if (info.isFile()) {
    if (basename(path) === PLUGIN_MANIFEST_FILE) return [dirname(path)];
    throw new Error(
      "it is a file; list a plugin folder (holding toolsift.plugin.json) or a folder of plugin folders",
    );
  }
  if (!info.isDirectory()) throw new Error("it is neither a file nor a folder");
  if (await isFile(join(path, PLUGIN_MANIFEST_FILE))) return [path];
  const names = (await readdir(path)).filter((name) => !name.startsWith(".")).sort(compareCodeUnits);
  const found: string[] = [];
  for (const name of names) {
    const child = join(path, name);
    if ((await isDirectory(child)) && (await isFile(join(child, PLUGIN_MANIFEST_FILE)))) found.push(child);
  }
  return found;
}

/**
 * Resolves `plugins.load.paths` against `baseDir`: each entry is a plugin folder (it holds
 * `toolsift.plugin.json`; the manifest file itself is accepted too) or a folder whose sub-folders with a
 * manifest are plugins (hidden and manifest-less sub-folders are ignored). Order: paths order, then
 * folder name order; a folder reached twice loads once. A missing or unusable entry is an error, never a throw.
 */
export async function findPluginDirs(paths: readonly unknown[], baseDir: string): Promise<FoundPluginDirs> {
  const dirs: string[] = [];
  const seen = new Set<string>();
  const errors: PluginLoadError[] = [];
  for (const raw of paths) {
    if (typeof raw !== "string" || raw.length === 0 || raw.includes("\u0000")) {
      errors.push({
        path: String(raw),
        message: "plugins.load.paths entries must be non-empty path strings.",
      });
      continue;
    }
    const path = resolve(baseDir, raw);
    try {
      for (const dir of await dirsOf(path)) {
        const real = await realpath(dir);
        if (seen.has(real)) continue;
        seen.add(real);
        dirs.push(dir);
      }
    } catch (error) {
      const missing = (error as { code?: unknown }).code === "ENOENT";
      errors.push({
        path,
        message: missing
          ? `Plugin path "${raw}" (plugins.load.paths, resolved to ${path}) does not exist; create it or remove it from the list.`
          : `Plugin path "${raw}" (plugins.load.paths, resolved to ${path}) cannot be used: ${pluginMessage(error)}.`,
      });
    }
  }
  return { dirs, errors };
}
