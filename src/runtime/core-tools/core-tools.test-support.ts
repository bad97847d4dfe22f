import { createHash } from "node:crypto";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import { createCoreTools } from "./create-core-tools.js";
import type { CoreToolsOptions } from "./types.js";

/** A temp tree for confinement tests: `root/box/ws` is the workspace; everything else in `root` is outside. */
export interface Sandbox {
  root: string;
  workspace: string;
  outside: string;
  tools: Record<"read" | "write" | "edit" | "exec", ToolDefinition>;
  remove(): Promise<void>;
}

/** Builds the sandbox tree with sentinels outside and symlinks of every kind inside the workspace. */
export async function makeSandbox(options: Omit<CoreToolsOptions, "workspace"> = {}): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "toolsift-core-")));
  const workspace = path.join(root, "box", "ws");
  const outside = path.join(root, "outside");
  await mkdir(path.join(workspace, "dir"), { recursive: true });
  await mkdir(path.join(workspace, "nested"), { recursive: true });
  await mkdir(path.join(outside, "sub"), { recursive: true });
  await writeFile(path.join(root, "secret.txt"), "SENTINEL root secret\n");
  await writeFile(path.join(outside, "sentinel.txt"), "SENTINEL outside\n");
  await writeFile(path.join(workspace, "inside.txt"), "inside content SENTINEL-inside\n");
  await writeFile(path.join(workspace, "dir", "file.txt"), "dir file SENTINEL-inside\n");
  await symlink("/etc/passwd", path.join(workspace, "link-passwd"));
  await symlink(path.join(root, "secret.txt"), path.join(workspace, "link-secret"));
  await symlink(outside, path.join(workspace, "outdir"));
  await symlink("../../outside", path.join(workspace, "rel-out"));
  await symlink(outside, path.join(workspace, "nested", "deeper"));
  await symlink(path.join(outside, "new-file.txt"), path.join(workspace, "dangling"));
  await symlink(path.join(outside, "newdir"), path.join(workspace, "dangling-dir"));
  await symlink("loop-b", path.join(workspace, "loop-a"));
  await symlink("loop-a", path.join(workspace, "loop-b"));
  await symlink("inside.txt", path.join(workspace, "link-inside"));
  await symlink("dir", path.join(workspace, "dirlink-inside"));
  const [read, write, edit, exec] = createCoreTools({ ...options, workspace });
  return {
    root,
    workspace,
    outside,
    tools: { read: read!, write: write!, edit: edit!, exec: exec! },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** A listing of everything under `root` except `skip` (type, content or link target), to prove nothing changed. */
export async function snapshotTree(root: string, skip: string): Promise<Record<string, string>> {
  const listing: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      if (full === skip) continue;
      const stats = await lstat(full);
      const key = path.relative(root, full);
      if (stats.isSymbolicLink()) listing[key] = `link -> ${await readlink(full)}`;
      else if (stats.isDirectory()) {
        listing[key] = "dir";
        await walk(full);
      } else listing[key] = `file ${await readFile(full, "utf8")}`;
    }
  };
  await walk(root);
  return listing;
}

/** SHA-256 of a file, to show a system file is untouched. */
export async function fileHash(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

/** The text of a tool result. */
export function resultText(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
