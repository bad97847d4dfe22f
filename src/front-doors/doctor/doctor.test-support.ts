import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { PLUGIN_MANIFEST_FILE } from "../../runtime/plugins/index.js";

/** A throwaway installation: a home with a config file, a state dir, a PATH with one command, plugins. */
export interface Installation {
  dir: string;
  /** `<dir>/toolsift.json` (not written until `writeConfig`). */
  file: string;
  stateDir: string;
  /** A directory on PATH holding an executable `calendar-mcp`. */
  binDir: string;
  env: NodeJS.ProcessEnv;
  writeConfig(text: string): Promise<void>;
  /** Every file under `dir` with its bytes and mtime: equal snapshots mean nothing was written. */
  snapshot(): Promise<Record<string, { bytes: string; mtime: number }>>;
  cleanup(): Promise<void>;
}

/** Creates an installation in a temp directory; `cleanup` removes it. */
export async function createInstallation(): Promise<Installation> {
  const dir = await mkdtemp(join(tmpdir(), "toolsift-doctor-"));
  const file = join(dir, "toolsift.json");
  const stateDir = join(dir, "state");
  const binDir = join(dir, "bin");
  await mkdir(stateDir);
  await mkdir(binDir);
  await writeFile(join(binDir, "calendar-mcp"), "#!/bin/sh\nexit 0\n");
  await chmod(join(binDir, "calendar-mcp"), 0o755);
  const env: NodeJS.ProcessEnv = {
    HOME: dir,
    TOOLSIFT_HOME: dir,
    TOOLSIFT_STATE_DIR: stateDir,
    PATH: binDir,
    OPENAI_API_KEY: "sk-test",
  };
  return {
    dir,
    file,
    stateDir,
    binDir,
    env,
    writeConfig: (text) => writeFile(file, text),
    snapshot: () => snapshotTree(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Writes a plugin folder `<root>/<id>` that registers `tools` (or a broken one when `entry` is given). */
export async function writeTestPlugin(
  root: string,
  id: string,
  options: { tools?: string[]; entry?: string; manifest?: string } = {},
): Promise<string> {
  const dir = join(root, id);
  const tools = options.tools ?? [];
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, PLUGIN_MANIFEST_FILE),
    options.manifest ?? JSON.stringify({ id, name: `Plugin ${id}`, version: "1.0.0", tools }),
  );
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  const register = `export function register(api) {
  for (const name of ${JSON.stringify(tools)}) {
    api.registerTool({ name, description: "Test tool.", parameters: { type: "object" }, execute: async () => ({ content: [] }) });
  }
}
`;
  await writeFile(join(dir, "index.js"), options.entry ?? register);
  return dir;
}

async function snapshotTree(root: string): Promise<Record<string, { bytes: string; mtime: number }>> {
  const result: Record<string, { bytes: string; mtime: number }> = {};
  const pending = [root];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        // A directory's mtime changes when the state probe comes and goes; its listing is what matters.
        result[`${relative(root, path)}/`] = { bytes: "", mtime: 0 };
        pending.push(path);
      } else {
        result[relative(root, path)] = {
          bytes: await readFile(path, "utf8"),
          mtime: (await stat(path)).mtimeMs,
        };
      }
    }
  }
  return result;
}
