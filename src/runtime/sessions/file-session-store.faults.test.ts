import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createFileSessionStore } from "./file-session-store.js";
import { STORE_PROBE_PREFIX } from "./probe-state-dir.js";
import { mountTinyTmpfs, type TinyTmpfs } from "./tiny-tmpfs.test-support.js";
import type { SessionEvent } from "./types.js";

function userInput(text: string): SessionEvent {
  return {
    type: "user-input",
    at: "2026-01-01T00:00:00.000Z",
    items: [{ type: "message", role: "user", text }],
  };
}

/** Every file under `dir`, relative. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-store-faults-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createFileSessionStore: a state directory under a regular file (ENOTDIR)", () => {
  it("fails appends with STORAGE_UNAVAILABLE, reports it once, probes 'not writable', reads as empty", async () => {
    const blocked = join(root, "file");
    await writeFile(blocked, "not a directory");
    const stateDir = join(blocked, "state");
    const reported: string[] = [];
    const store = createFileSessionStore(stateDir, { onStorageFault: (line) => reported.push(line) });
    for (let index = 0; index < 5; index += 1) {
      const error = await store.append("main", `s${index}`, userInput("x")).catch((e: unknown) => e);
      expect(isToolsiftError(error) && error.code).toBe("STORAGE_UNAVAILABLE");
    }
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(`state directory ${stateDir}`);
    expect(reported[0]).toContain("ENOTDIR");
    const status = await store.probeWritable?.();
    expect(status).toEqual({
      writable: false,
      reason: expect.stringContaining(`${stateDir} cannot be written`),
    });
    expect(reported).toHaveLength(1);
    expect(await store.read("main", "s0")).toEqual([]);
  });

  it("recovers once the path is a directory again, and says so once", async () => {
    const blocked = join(root, "state");
    await writeFile(blocked, "not a directory");
    const reported: string[] = [];
    const store = createFileSessionStore(join(blocked, "inner"), {
      onStorageFault: (line) => reported.push(line),
    });
    await expect(store.append("main", "s", userInput("x"))).rejects.toThrow(/cannot be written/);
    await rm(blocked);
    await store.append("main", "s", userInput("y"));
    await store.append("main", "s", userInput("z"));
    expect(reported).toHaveLength(2);
    expect(reported[1]).toContain("available again");
    expect(await store.probeWritable?.()).toEqual({ writable: true });
    expect(await store.read("main", "s")).toHaveLength(2);
  });
});

describe("createFileSessionStore: a full disk (64 KiB tmpfs)", () => {
  let disk: TinyTmpfs | undefined;
  let skipped: string | undefined;

  beforeAll(async () => {
    const mounted = await mountTinyTmpfs(await mkdtemp(join(tmpdir(), "toolsift-tmpfs-")));
    if ("skipped" in mounted) {
      skipped = mounted.skipped;
      console.warn(`skipping the full-disk store test: ${skipped}`);
    } else disk = mounted;
  });

  afterAll(() => disk?.unmount());

  it("leaves no empty log file behind, probes the fault and sees the recovery", async (context) => {
    if (!disk) return context.skip(skipped);
    const stateDir = join(disk.dir, "state");
    const reported: string[] = [];
    const store = createFileSessionStore(stateDir, { onStorageFault: (line) => reported.push(line) });
    await store.append("main", "before", userInput("fits"));
    await disk.fill();
    const error = await store.append("main", "new-session", userInput("x")).catch((e: unknown) => e);
    expect(isToolsiftError(error) && error.code).toBe("STORAGE_UNAVAILABLE");
    expect((error as Error).message).toContain("no space left on device (ENOSPC)");
    const status = await store.probeWritable?.();
    expect(status?.writable).toBe(false);
    const files = await filesUnder(stateDir);
    expect(files.filter((file) => file.endsWith(".jsonl"))).toEqual([
      join(stateDir, "agents/main/sessions/before.jsonl"),
    ]);
    expect(files.filter((file) => file.includes(STORE_PROBE_PREFIX))).toEqual([]);
    await disk.free();
    await store.append("main", "new-session", userInput("y"));
    expect(await store.read("main", "new-session")).toHaveLength(1);
    expect(reported).toEqual([expect.stringContaining("ENOSPC"), expect.stringContaining("available again")]);
  });
});
