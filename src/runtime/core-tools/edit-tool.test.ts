import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, resultText, type Sandbox } from "./core-tools.test-support.js";
import { countOccurrences } from "./edit-tool.js";

describe("edit", () => {
  let box: Sandbox;
  const file = (): string => path.join(box.workspace, "notes.txt");
  beforeEach(async () => {
    box = await makeSandbox({ maxWriteBytes: 2000 });
    await writeFile(file(), "alpha\nbeta\ngamma\nbeta\n");
  });
  afterEach(async () => {
    await box.remove();
  });

  it("replaces exactly one occurrence and says where", async () => {
    const result = await box.tools.edit.execute(
      { path: "notes.txt", oldText: "gamma", newText: "GAMMA" },
      {},
    );
    expect(result).toEqual({
      content: [{ type: "text", text: 'Edited "notes.txt": replaced 1 occurrence at line 3.' }],
      details: { line: 3, bytes: 22 },
    });
    expect(await readFile(file(), "utf8")).toBe("alpha\nbeta\nGAMMA\nbeta\n");
  });

  it("inserts newText literally ($& and $1 are not replacement patterns)", async () => {
    await box.tools.edit.execute({ path: "notes.txt", oldText: "alpha", newText: "$&-$1-$$" }, {});
    expect(await readFile(file(), "utf8")).toBe("$&-$1-$$\nbeta\ngamma\nbeta\n");
  });

  it("keeps the file's mode", async () => {
    await chmod(file(), 0o600);
    await box.tools.edit.execute({ path: "notes.txt", oldText: "alpha", newText: "a" }, {});
    expect((await stat(file())).mode & 0o777).toBe(0o600);
  });

  const problems: Array<[what: string, args: Record<string, unknown>, message: string]> = [
    [
      "several occurrences",
      { oldText: "beta", newText: "b" },
      'oldText occurs 2 times in "notes.txt"; include more of the surrounding lines so it matches exactly once.',
    ],
    [
      "no occurrence",
      { oldText: "delta", newText: "d" },
      'oldText was not found in "notes.txt" (0 occurrences); read the file and copy the exact text, whitespace included.',
    ],
    [
      "an empty oldText",
      { oldText: "", newText: "x" },
      "edit: oldText is empty; give the exact text to replace.",
    ],
    ["a missing newText", { oldText: "alpha" }, 'edit needs "newText" (string).'],
  ];

  it.each(problems)("refuses %s and leaves the file alone", async (_what, args, message) => {
    const result = await box.tools.edit.execute({ path: "notes.txt", ...args }, {});
    expect(result).toEqual({ content: [{ type: "text", text: message }], isError: true });
    expect(await readFile(file(), "utf8")).toBe("alpha\nbeta\ngamma\nbeta\n");
  });

  it("counts overlapping occurrences, so an ambiguous match is refused", async () => {
    expect(countOccurrences("aaa", "aa")).toBe(2);
    await writeFile(file(), "aaa");
    const result = await box.tools.edit.execute({ path: "notes.txt", oldText: "aa", newText: "b" }, {});
    expect(resultText(result)).toMatch(/^oldText occurs 2 times/);
  });

  it("hints at CRLF line endings when a multi-line oldText misses", async () => {
    await writeFile(file(), "one\r\ntwo\r\n");
    const result = await box.tools.edit.execute({ path: "notes.txt", oldText: "one\ntwo", newText: "x" }, {});
    expect(resultText(result)).toContain("The file uses CRLF (\\r\\n) line endings; match them in oldText.");
  });

  it("refuses a file that is not UTF-8 text", async () => {
    await writeFile(file(), Buffer.from([0x61, 0xff, 0x62]));
    const result = await box.tools.edit.execute({ path: "notes.txt", oldText: "a", newText: "b" }, {});
    expect(resultText(result)).toBe('File "notes.txt" is not UTF-8 text; edit changes text files only.');
    expect(await readFile(file())).toEqual(Buffer.from([0x61, 0xff, 0x62]));
  });

  it("refuses a file over maxWriteBytes, and a result that would grow past it", async () => {
    await writeFile(file(), "x".repeat(2001));
    expect(
      resultText(await box.tools.edit.execute({ path: "notes.txt", oldText: "x", newText: "" }, {})),
    ).toBe('File "notes.txt" is 2001 bytes; edit handles files up to 2000.');
    await writeFile(file(), `${"x".repeat(1990)}MARK`);
    const grow = await box.tools.edit.execute(
      { path: "notes.txt", oldText: "MARK", newText: "y".repeat(20) },
      {},
    );
    expect(resultText(grow)).toBe("The edited file would be 2010 bytes; edit keeps files to 2000.");
  });

  it("refuses a missing file and says to use write", async () => {
    const result = await box.tools.edit.execute({ path: "nope.txt", oldText: "a", newText: "b" }, {});
    expect(resultText(result)).toBe(
      'File "nope.txt" does not exist in the workspace. Use write to create it.',
    );
  });
});
