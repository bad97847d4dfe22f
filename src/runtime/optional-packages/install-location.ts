import { existsSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { InstallLocation } from "./install-command.js";

/** toolsift's own folder: three levels above this file, in `dist/runtime/…` as in `src/runtime/…`. */
const TOOLSIFT_DIR = fileURLToPath(new URL("../../../", import.meta.url)).replace(/[\\/]+$/u, "");

/**
 * Where the toolsift at `packageDir` (default: this one) is installed: in npm's exec cache (a `_npx` folder),
 * in a project's `node_modules` (the folder above has a package.json), globally (it has none: the global
 * prefix's `lib`), or not under `node_modules` at all (a checkout).
 */
export function installLocation(packageDir: string = TOOLSIFT_DIR): InstallLocation {
  const parent = dirname(packageDir);
  if (basename(parent) !== "node_modules") return { kind: "checkout", root: packageDir };
  if (packageDir.split(sep).includes("_npx")) return { kind: "npx" };
  const root = dirname(parent);
  return existsSync(join(root, "package.json")) ? { kind: "project", root } : { kind: "global" };
}
