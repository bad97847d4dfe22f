import { lstat, readFile, readlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileHash, makeSandbox, resultText, type Sandbox, snapshotTree } from "./core-tools.test-support.js";
import { resolveInsideWorkspace } from "./resolve-inside-workspace.js";

type ToolName = "read" | "write" | "edit";

const OUTSIDE = /is outside the workspace\./;
const NOWHERE = /goes through a symbolic link that points nowhere/;

/**
 * Every path probe that must be refused, for each file tool. `system` marks probes that reach a real system
 * file: for write and edit, the test first proves resolveInsideWorkspace refuses them (write and edit call it
 * before touching anything), so a regression fails the test instead of overwriting /etc/passwd.
 */
const refusals: Array<{
  probe: string;
  path: (box: Sandbox) => string;
  reason: RegExp;
  system?: boolean;
}> = [
  { probe: "../../", path: () => "../../", reason: OUTSIDE },
  { probe: "..", path: () => "..", reason: OUTSIDE },
  { probe: "../../etc/passwd (lands in the test root)", path: () => "../../etc/passwd", reason: OUTSIDE },
  { probe: "a/../../x", path: () => "a/../../x", reason: OUTSIDE },
  { probe: "../../outside/sentinel.txt", path: () => "../../outside/sentinel.txt", reason: OUTSIDE },
  { probe: "deep ../ chain", path: () => `dir/${"../../".repeat(40)}etc/passwd`, reason: OUTSIDE },
  { probe: "absolute /etc/passwd", path: () => "/etc/passwd", reason: OUTSIDE, system: true },
  { probe: "absolute path outside", path: (box) => path.join(box.root, "secret.txt"), reason: OUTSIDE },
  {
    probe: "absolute path next to the workspace",
    path: (box) => `${box.workspace}-evil/x.txt`,
    reason: OUTSIDE,
  },
  {
    probe: "absolute path with .. out of the workspace",
    path: (box) => `${box.workspace}/../x.txt`,
    reason: OUTSIDE,
  },
  { probe: "symlink to /etc/passwd", path: () => "link-passwd", reason: OUTSIDE, system: true },
  { probe: "final-component symlink to an outside file", path: () => "link-secret", reason: OUTSIDE },
  { probe: "symlink to an outside dir used as parent", path: () => "outdir/sentinel.txt", reason: OUTSIDE },
  { probe: "symlink to an outside dir, new file", path: () => "outdir/created.txt", reason: OUTSIDE },
  {
    probe: "symlink to an outside dir, new folders below",
    path: () => "outdir/new/deep/file.txt",
    reason: OUTSIDE,
  },
  { probe: "relative symlink to an outside dir", path: () => "rel-out/sentinel.txt", reason: OUTSIDE },
  {
    probe: "symlinked parent directory deeper down",
    path: () => "nested/deeper/sentinel.txt",
    reason: OUTSIDE,
  },
  { probe: "symlinked parent directory, new file", path: () => "nested/deeper/sub/new.txt", reason: OUTSIDE },
  { probe: "dangling symlink to an outside file", path: () => "dangling", reason: NOWHERE },
  {
    probe: "dangling symlink to an outside dir as parent",
    path: () => "dangling-dir/x.txt",
    reason: NOWHERE,
  },
  { probe: "symlink loop", path: () => "loop-a", reason: /cannot be resolved \(ELOOP\)/ },
  {
    probe: "path longer than 4096 characters",
    path: () => `${"abcdefgh/".repeat(456)}x.txt`,
    reason: /is too long/,
  },
  {
    probe: "component longer than 255 bytes",
    path: () => `${"n".repeat(256)}.txt`,
    reason: /longer than 255 bytes/,
  },
  {
    probe: "multibyte component over 255 bytes",
    path: () => `${"é".repeat(128)}.txt`,
    reason: /longer than 255 bytes/,
  },
  { probe: "NUL byte", path: () => "inside.txt\0../../secret.txt", reason: /contains a NUL byte/ },
  { probe: "empty path", path: () => "", reason: /The path is empty/ },
];

const TOOL_ARGS: Record<ToolName, (target: string) => Record<string, unknown>> = {
  read: (target) => ({ path: target }),
  write: (target) => ({ path: target, content: "PWNED" }),
  edit: (target) => ({ path: target, oldText: "SENTINEL", newText: "PWNED" }),
};

describe("core tools: path escape suite", () => {
  let box: Sandbox;
  let before: Record<string, string>;
  let passwdHash: string;

  beforeEach(async () => {
    box = await makeSandbox();
    before = await snapshotTree(box.root, box.workspace);
    passwdHash = await fileHash("/etc/passwd");
  });
  afterEach(async () => {
    await box.remove();
  });

  for (const tool of ["read", "write", "edit"] as const) {
    describe(tool, () => {
      it.each(refusals)("refuses $probe", async ({ path: target, reason, system }) => {
        const requested = target(box);
        if (system && tool !== "read") {
          const resolved = await resolveInsideWorkspace(box.workspace, requested);
          expect(resolved.ok).toBe(false);
          if (resolved.ok) return;
        }
        const result = await box.tools[tool].execute(TOOL_ARGS[tool](requested), {});
        expect(result.isError).toBe(true);
        const text = resultText(result);
        expect(text).toMatch(reason);
        expect(text).not.toMatch(/SENTINEL|root:x:0/);
        expect(await snapshotTree(box.root, box.workspace)).toEqual(before);
        expect(await fileHash("/etc/passwd")).toBe(passwdHash);
      });
    });
  }

  describe("paths that stay inside are accepted", () => {
    it("reads an absolute path inside the workspace", async () => {
      const result = await box.tools.read.execute({ path: path.join(box.workspace, "inside.txt") }, {});
      expect(result.isError).toBeUndefined();
      expect(resultText(result)).toBe("inside content SENTINEL-inside\n");
    });

    it("writes and edits an absolute path inside the workspace", async () => {
      const target = path.join(box.workspace, "dir", "abs.txt");
      expect(
        (await box.tools.write.execute({ path: target, content: "alpha beta" }, {})).isError,
      ).toBeUndefined();
      expect(
        (await box.tools.edit.execute({ path: target, oldText: "beta", newText: "gamma" }, {})).isError,
      ).toBeUndefined();
      expect(await readFile(target, "utf8")).toBe("alpha gamma");
    });

    it("treats ~/x literally: a folder named ~ inside the workspace", async () => {
      const result = await box.tools.write.execute({ path: "~/x", content: "tilde" }, {});
      expect(result.isError).toBeUndefined();
      expect(await readFile(path.join(box.workspace, "~", "x"), "utf8")).toBe("tilde");
      expect(resultText(await box.tools.read.execute({ path: "~/x" }, {}))).toBe("tilde");
    });

    it("normalises a/../b inside the workspace lexically", async () => {
      const result = await box.tools.read.execute({ path: "dir/../inside.txt" }, {});
      expect(resultText(result)).toBe("inside content SENTINEL-inside\n");
    });

    it("normalises outdir/.. lexically, so the file system never walks up from a symlink", async () => {
      const result = await box.tools.read.execute({ path: "outdir/../inside.txt" }, {});
      expect(resultText(result)).toBe("inside content SENTINEL-inside\n");
    });

    it("follows a symlink that stays inside, for read, write and edit", async () => {
      expect(resultText(await box.tools.read.execute({ path: "link-inside" }, {}))).toContain(
        "inside content",
      );
      expect(resultText(await box.tools.read.execute({ path: "dirlink-inside/file.txt" }, {}))).toContain(
        "dir file",
      );
      await box.tools.edit.execute({ path: "link-inside", oldText: "inside content", newText: "edited" }, {});
      expect(await readFile(path.join(box.workspace, "inside.txt"), "utf8")).toBe("edited SENTINEL-inside\n");
      await box.tools.write.execute({ path: "link-inside", content: "rewritten" }, {});
      expect(await readFile(path.join(box.workspace, "inside.txt"), "utf8")).toBe("rewritten");
      expect((await lstat(path.join(box.workspace, "link-inside"))).isSymbolicLink()).toBe(true);
      expect(await readlink(path.join(box.workspace, "link-inside"))).toBe("inside.txt");
      expect(await snapshotTree(box.root, box.workspace)).toEqual(before);
    });
  });
});
