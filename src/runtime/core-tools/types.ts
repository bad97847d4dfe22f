/** Options of {@link createCoreTools}. */
export interface CoreToolsOptions {
  /** Directory the tools work in (the agent's workspace); created on first use when missing. */
  workspace: string;
  /** Most bytes `read` returns per call. Default 1 MiB. */
  maxReadBytes?: number;
  /** Most bytes `write` writes, and the largest file `edit` handles. Default 1 MiB. */
  maxWriteBytes?: number;
  /** Default and maximum run time of one `exec` call, in ms; the model may ask for less. Default 30,000. */
  execTimeoutMs?: number;
  /** Most bytes of combined stdout and stderr `exec` returns. Default 64 KiB. */
  maxExecOutputBytes?: number;
}

/** Options with every default filled in. */
export interface CoreToolsSettings {
  workspace: string;
  maxReadBytes: number;
  maxWriteBytes: number;
  execTimeoutMs: number;
  maxExecOutputBytes: number;
}

/** Where a requested path lands: a real path inside the workspace, or the reason it was refused. */
export type WorkspacePath =
  | {
      ok: true;
      /** Absolute path with every existing part resolved (no symlinks left in it). */
      path: string;
      /** The workspace's own real path. */
      root: string;
      /** Whether the target exists now. */
      exists: boolean;
    }
  | { ok: false; reason: string };
