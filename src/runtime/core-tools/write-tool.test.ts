import { chmod, link, lstat, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, resultText, type Sandbox } from "./core-tools.test-support.js";

describe("write", () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox({ maxWriteBytes: 1000 });
  });
  afterEach(async () => {
    await box.remove();
  });

  it("creates a file and its parent folders inside the workspace", async () => {
    const result = await box.tools.write.execute({ path: "new/deep/file.txt", content: "hello" }, {});
    expect(result).toEqual({
      content: [{ type: "text", text: 'Created "new/deep/file.txt" (5 bytes).' }],
      details: { bytes: 5, created: true },
    });
    expect(await readFile(path.join(box.workspace, "new", "deep", "file.txt"), "utf8")).toBe("hello");
  });

  it("replaces an existing file atomically, keeps its mode, and leaves no temp file", async () => {
    const target = path.join(box.workspace, "dir", "file.txt");
    await chmod(target, 0o640);
    const result = await box.tools.write.execute({ path: "dir/file.txt", content: "replaced" }, {});
    expect(resultText(result)).toBe('Wrote "dir/file.txt" (8 bytes).');
    expect(await readFile(target, "utf8")).toBe("replaced");
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect(await readdir(path.join(box.workspace, "dir"))).toEqual(["file.txt"]);
  });

  it("replaces a hard link's entry instead of writing through to the other name", async () => {
    const other = path.join(box.workspace, "other.txt");
    await writeFile(other, "shared");
    await link(other, path.join(box.workspace, "hard.txt"));
    await box.tools.write.execute({ path: "hard.txt", content: "mine" }, {});
    expect(await readFile(other, "utf8")).toBe("shared");
    expect(await readFile(path.join(box.workspace, "hard.txt"), "utf8")).toBe("mine");
  });

  it("counts the size cap in UTF-8 bytes and refuses content over it", async () => {
    expect(
      (await box.tools.write.execute({ path: "ok.txt", content: "x".repeat(1000) }, {})).isError,
    ).toBeUndefined();
    const result = await box.tools.write.execute({ path: "big.txt", content: "é".repeat(501) }, {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      "Content is 1002 bytes; write takes at most 1000 bytes. Write a smaller file.",
    );
    await expect(lstat(path.join(box.workspace, "big.txt"))).rejects.toThrow();
  });

  const refusals: Array<[what: string, target: string, message: string]> = [
    ["a directory", "dir", '"dir" is a directory; give a file path inside it.'],
    ["the workspace itself", ".", '"." is the workspace folder itself; give a file path.'],
    [
      "a path through a file",
      "inside.txt/x.txt",
      'File "inside.txt/x.txt" cannot be written (a part of the path is a file, not a folder).',
    ],
  ];

  it.each(refusals)("refuses %s", async (_what, target, message) => {
    const result = await box.tools.write.execute({ path: target, content: "x" }, {});
    expect(result).toEqual({ content: [{ type: "text", text: message }], isError: true });
  });

  it("answers missing content with an error result", async () => {
    const result = await box.tools.write.execute({ path: "a.txt" }, {});
    expect(result).toEqual({
      content: [{ type: "text", text: 'write needs "content" (string).' }],
      isError: true,
    });
  });

  it.skipIf(process.getuid?.() === 0)(
    "reports a folder it cannot write into (root may write anywhere)",
    async () => {
      await mkdir(path.join(box.workspace, "locked"));
      await chmod(path.join(box.workspace, "locked"), 0o500);
      const result = await box.tools.write.execute({ path: "locked/a.txt", content: "x" }, {});
      await chmod(path.join(box.workspace, "locked"), 0o700);
      expect(resultText(result)).toBe('File "locked/a.txt" cannot be written (EACCES).');
    },
  );
});
