import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { PLUGIN_MANIFEST_FILE } from "./read-plugin-manifest.js";

/** The entry module's real path, or why it cannot be used. */
export type EntryResult = { ok: true; entry: string } | { ok: false; message: string };

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Resolves the manifest's `main` inside the plugin folder: an absolute `main`, one that leaves the folder
 * (`../x.js`), or one whose real path (symlinks followed) lies outside the folder's real path is refused;
 * so is a missing entry or one that is not a file. Never throws.
 */
export async function resolvePluginEntry(dir: string, main: string): Promise<EntryResult> {
  const where = `"main" in ${resolve(dir, PLUGIN_MANIFEST_FILE)}`;
  if (main.includes("\u0000")) return { ok: false, message: `${where} contains a NUL character.` };
  if (isAbsolute(main) || /^[A-Za-z]:/.test(main) || main.startsWith("\\")) {
    return {
      ok: false,
      message: `${where} is an absolute path (${JSON.stringify(main)}); use a path relative to the plugin folder.`,
    };
  }
  const entry = resolve(dir, main);
  if (!inside(resolve(dir), entry)) {
    return {
      ok: false,
      message: `${where} (${JSON.stringify(main)}) leaves the plugin folder; the entry must be inside ${dir}.`,
    };
  }
  let realEntry: string;
  let realDir: string;
  try {
    realDir = await realpath(dir);
    realEntry = await realpath(entry);
  } catch {
    return {
      ok: false,
      message: `The plugin entry ${entry} (${where}) does not exist; build the plugin or fix "main".`,
    };
  }
  if (!inside(realDir, realEntry)) {
    return {
      ok: false,
      message: `The plugin entry ${entry} (${where}) is a link to ${realEntry}, outside the plugin folder; copy the file into the folder.`,
    };
  }
  try {
    if (!(await stat(realEntry)).isFile()) {
      return { ok: false, message: `The plugin entry ${entry} (${where}) is not a file.` };
    }
  } catch {
    return { ok: false, message: `The plugin entry ${entry} (${where}) cannot be read.` };
  }
  return { ok: true, entry: realEntry };
}
