import { execFileSync } from "node:child_process";
import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, resultText, type Sandbox } from "./core-tools.test-support.js";
import { createCoreTools } from "./create-core-tools.js";

describe("read", () => {
  let box: Sandbox | undefined;
  afterEach(async () => {
    await box?.remove();
    box = undefined;
  });

  async function sandboxWith(
    files: Record<string, string | Buffer>,
    maxReadBytes?: number,
  ): Promise<Sandbox> {
    box = await makeSandbox(maxReadBytes === undefined ? {} : { maxReadBytes });
    for (const [name, content] of Object.entries(files))
      await writeFile(path.join(box.workspace, name), content);
    return box;
  }

  it("returns a whole small file as text", async () => {
    const { tools } = await sandboxWith({ "a.txt": "one\ntwo\n" });
    const result = await tools.read.execute({ path: "a.txt" }, {});
    expect(result).toEqual({
      content: [{ type: "text", text: "one\ntwo\n" }],
      details: { startLine: 1, endLine: 2, bytes: 8, fileBytes: 8, truncated: false },
    });
  });

  const windows: Array<[args: { offset?: number; limit?: number }, text: string, isError?: boolean]> = [
    [{ offset: 2, limit: 2 }, "l2\nl3\n\n[Lines 2-3 shown; more follow. Continue with offset=4.]"],
    [{ offset: 4 }, "l4\nl5"],
    [{ offset: 5, limit: 10 }, "l5"],
    [{ limit: 1 }, "l1\n\n[Lines 1-1 shown; more follow. Continue with offset=2.]"],
    [{ offset: 6 }, 'File "lines.txt" has 5 lines; offset 6 is past the end.', true],
  ];

  it.each(windows)("reads the window %j", async (window, text, isError) => {
    const { tools } = await sandboxWith({ "lines.txt": "l1\nl2\nl3\nl4\nl5" });
    const result = await tools.read.execute({ path: "lines.txt", ...window }, {});
    expect(resultText(result)).toBe(text);
    expect(result.isError).toBe(isError);
  });

  it("finds lines across chunk boundaries of a large file", async () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `line number ${index + 1}`);
    const { tools } = await sandboxWith({ "big.txt": `${lines.join("\n")}\n` });
    const result = await tools.read.execute({ path: "big.txt", offset: 150_000, limit: 3 }, {});
    expect(resultText(result)).toBe(
      "line number 150000\nline number 150001\nline number 150002\n\n[Lines 150000-150002 shown; more follow. Continue with offset=150003.]",
    );
  });

  it("stops at maxReadBytes with a note saying how to go on", async () => {
    const { tools } = await sandboxWith({ "long.txt": `${"x".repeat(3000)}\nnext\n` }, 1000);
    const result = await tools.read.execute({ path: "long.txt" }, {});
    const text = resultText(result);
    expect(text.startsWith(`${"x".repeat(1000)}\n\n[Stopped at the 1000-byte read limit inside line 1`)).toBe(
      true,
    );
    expect(text).toContain("(the file has 3006 bytes). Continue with offset=2");
    expect(result.details).toEqual({
      startLine: 1,
      endLine: 1,
      bytes: 1000,
      fileBytes: 3006,
      truncated: true,
    });
  });

  it("never cuts a UTF-8 character in half at the byte limit", async () => {
    const { tools } = await sandboxWith({ "accents.txt": "é".repeat(1000) }, 1001);
    const text = resultText(await tools.read.execute({ path: "accents.txt" }, {}));
    expect(text.split("\n")[0]).toBe("é".repeat(500));
    expect(text).not.toContain("\uFFFD");
  });

  const refusals: Array<
    [what: string, setup: (box: Sandbox) => Promise<void>, target: string, message: RegExp]
  > = [
    [
      "a binary file",
      (b) => writeFile(path.join(b.workspace, "bin"), Buffer.from([1, 0, 2])),
      "bin",
      /looks binary/,
    ],
    [
      "a directory",
      async () => undefined,
      "dir",
      /"dir" is a directory; give the path of a file inside it\./,
    ],
    [
      "a missing file",
      async () => undefined,
      "missing.txt",
      /^File "missing.txt" does not exist in the workspace\.$/,
    ],
    [
      "a FIFO (without blocking)",
      async (b) => {
        execFileSync("mkfifo", [path.join(b.workspace, "pipe")]);
      },
      "pipe",
      /"pipe" is not a regular file/,
    ],
  ];

  it.each(refusals)("refuses %s", async (_what, setup, target, message) => {
    const sandbox = await sandboxWith({});
    await setup(sandbox);
    const result = await sandbox.tools.read.execute({ path: target }, {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(message);
  });

  it("says an empty file is empty", async () => {
    const { tools } = await sandboxWith({ "empty.txt": "" });
    expect(resultText(await tools.read.execute({ path: "empty.txt" }, {}))).toBe(
      'File "empty.txt" is empty.',
    );
  });

  const badArguments: Array<[args: unknown, message: string]> = [
    [null, "read takes an object of arguments: { path: string, offset?: integer, limit?: integer }."],
    [{ path: 3 }, 'read: "path" must be a string.'],
    [{}, 'read needs "path" (string).'],
    [{ path: "a.txt", offset: 0 }, 'read: "offset" must be a whole number of at least 1.'],
    [{ path: "a.txt", limit: 1.5 }, 'read: "limit" must be a whole number of at least 1.'],
    [
      { path: "a.txt", encoding: "latin1" },
      'read has no argument "encoding"; it takes { path: string, offset?: integer, limit?: integer }.',
    ],
  ];

  it.each(badArguments)("answers bad arguments %j with an error result", async (args, message) => {
    const { tools } = await sandboxWith({ "a.txt": "a" });
    const result = await tools.read.execute(args, {});
    expect(result).toEqual({ content: [{ type: "text", text: message }], isError: true });
  });

  it("creates a missing workspace on first use", async () => {
    const sandbox = await sandboxWith({});
    const workspace = path.join(sandbox.root, "fresh", "ws");
    const [read] = createCoreTools({ workspace });
    const result = await read!.execute({ path: "a.txt" }, {});
    expect(resultText(result)).toBe('File "a.txt" does not exist in the workspace.');
    expect((await stat(workspace)).isDirectory()).toBe(true);
  });
});
