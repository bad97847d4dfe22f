import { spawn } from "node:child_process";
import { sep } from "node:path";
import { CELL_HOST_SOURCE } from "./cell-host-source.js";
import {
  CHILD_HEAP_HEADROOM_MB,
  MAX_STACK_BYTES,
  MAX_VALUE_BYTES,
  WASM_MEMORY_HEADROOM_BYTES,
} from "./limits.js";
import { quickJsFiles } from "./quickjs-files.js";

/** The limits a child enforces inside QuickJS. */
export interface ChildLimits {
  memoryLimitBytes: number;
  maxBridgeCalls: number;
  maxLogBytes: number;
}

/** How to start one isolated child: the Node binary and its whole argument list. */
export interface ChildLaunch {
  command: string;
  args: string[];
}

let permissionFlag: Promise<string> | undefined;

/**
 * The flag that turns Node's permission model on: `--permission` where this Node accepts it (22.13+), else
 * `--experimental-permission` (Node 20). Probed once per process by running `node --permission -e 0`.
 */
export function detectPermissionFlag(): Promise<string> {
  permissionFlag ??= new Promise((resolve) => {
    const probe = spawn(process.execPath, ["--permission", "-e", "0"], { env: {}, stdio: "ignore" });
    probe.once("error", () => resolve("--experimental-permission"));
    probe.once("exit", (code) => resolve(code === 0 ? "--permission" : "--experimental-permission"));
  });
  return permissionFlag;
}

/** A read grant for a whole folder, in the form the running Node understands (`<dir>/*` works on 20 and 22). */
function folderGrant(folder: string): string {
  return `--allow-fs-read=${folder.endsWith(sep) ? folder : folder + sep}*`;
}

/**
 * The permission and resource flags of a child, without the program: the permission model on, read access
 * to the QuickJS package folders only, no write, child-process, worker or addon grants, no code generation
 * from strings in the host V8, and a V8 heap ceiling. Exported so tests can start a probe child with the
 * very same flags.
 */
export async function childNodeFlags(limits: ChildLimits): Promise<string[]> {
  const files = quickJsFiles();
  const heapMb = Math.ceil(limits.memoryLimitBytes / 2 ** 20) + CHILD_HEAP_HEADROOM_MB;
  return [
    await detectPermissionFlag(),
    ...files.readPaths.map(folderGrant),
    "--disallow-code-generation-from-strings",
    // Baseline WASM code only: no background tier-up that stalls the child's event loop after start-up.
    "--liftoff-only",
    `--max-old-space-size=${heapMb}`,
    "--no-warnings",
  ];
}

/** The full launch of a Code Mode child: its flags, the cell host program and the limits it enforces. */
export async function cellChildLaunch(limits: ChildLimits): Promise<ChildLaunch> {
  const files = quickJsFiles();
  const childLimits = {
    memoryLimitBytes: limits.memoryLimitBytes,
    wasmMemoryMaxBytes: 2 * limits.memoryLimitBytes + WASM_MEMORY_HEADROOM_BYTES,
    maxStackBytes: MAX_STACK_BYTES,
    maxBridgeCalls: limits.maxBridgeCalls,
    maxLogBytes: limits.maxLogBytes,
    maxValueBytes: MAX_VALUE_BYTES,
  };
  return {
    command: process.execPath,
    args: [
      ...(await childNodeFlags(limits)),
      "--input-type=module",
      "-e",
      CELL_HOST_SOURCE,
      "--",
      files.coreUrl,
      files.variantUrl,
      JSON.stringify(childLimits),
    ],
  };
}
