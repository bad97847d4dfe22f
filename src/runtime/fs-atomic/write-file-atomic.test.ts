import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./write-file-atomic.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "toolsift-atomic-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rejection(run: () => Promise<unknown>): Promise<NodeJS.ErrnoException> {
  try {
    await run();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error("expected a rejection");
}

describe("writeFileAtomic", () => {
  it("replaces the file and leaves no temp file", async () => {
    const file = path.join(dir, "toolsift.json");
    await writeFile(file, "old");
    await writeFileAtomic(file, "new");
    expect(await readFile(file, "utf8")).toBe("new");
    expect(await readdir(dir)).toEqual(["toolsift.json"]);
  });

  it("writes strings as UTF-8 and bytes as they are", async () => {
    const text = path.join(dir, "text.txt");
    const bytes = path.join(dir, "bytes.bin");
    await writeFileAtomic(text, "héllo ✓");
    await writeFileAtomic(bytes, new Uint8Array([0, 255, 10, 13]));
    expect(await readFile(text, "utf8")).toBe("héllo ✓");
    expect([...(await readFile(bytes))]).toEqual([0, 255, 10, 13]);
  });

  it("sets `mode` exactly, past the umask", async () => {
    const file = path.join(dir, "script.sh");
    await writeFile(file, "old", { mode: 0o600 });
    await writeFileAtomic(file, "new", { mode: 0o646 });
    expect((await stat(file)).mode & 0o7777).toBe(0o646);
  });

  it("creates a new file with `newFileMode` filtered by the umask, 0666 by default", async () => {
    const secret = path.join(dir, "secret.json");
    const plain = path.join(dir, "plain.txt");
    await writeFileAtomic(secret, "{}", { newFileMode: 0o600 });
    await writeFileAtomic(plain, "x");
    expect((await stat(secret)).mode & 0o777 & ~0o600).toBe(0);
    expect((await stat(secret)).mode & 0o600).toBe(0o600);
    expect((await stat(plain)).mode & 0o777 & ~0o666).toBe(0);
    expect((await stat(plain)).mode & 0o600).toBe(0o600);
  });

  it("removes its temp file and keeps the target when the final rename fails", async () => {
    const target = path.join(dir, "occupied");
    await mkdir(target);
    await writeFile(path.join(target, "inside"), "x");
    const error = await rejection(() => writeFileAtomic(target, "data"));
    expect(error.code).toMatch(/^E[A-Z]+$/u);
    expect(await readdir(dir)).toEqual(["occupied"]);
    expect(await readdir(target)).toEqual(["inside"]);
  });

  it("throws the Node error and creates nothing when the directory is missing", async () => {
    const error = await rejection(() => writeFileAtomic(path.join(dir, "missing", "file.txt"), "data"));
    expect(error.code).toBe("ENOENT");
    expect(await readdir(dir)).toEqual([]);
  });

  it("replaces a final symlink instead of writing through it", async () => {
    const outside = path.join(dir, "outside.txt");
    const linkPath = path.join(dir, "link.txt");
    await writeFile(outside, "keep me");
    await symlink(outside, linkPath);
    await writeFileAtomic(linkPath, "new");
    expect((await lstat(linkPath)).isSymbolicLink()).toBe(false);
    expect(await readFile(linkPath, "utf8")).toBe("new");
    expect(await readFile(outside, "utf8")).toBe("keep me");
  });

  it("leaves a hard link's other name with the old bytes", async () => {
    const file = path.join(dir, "file.txt");
    const other = path.join(dir, "other.txt");
    await writeFile(file, "old");
    await link(file, other);
    await writeFileAtomic(file, "new");
    expect(await readFile(file, "utf8")).toBe("new");
    expect(await readFile(other, "utf8")).toBe("old");
  });

  it("writes a file whose name is as long as the file system allows", async () => {
    const file = path.join(dir, `${"n".repeat(250)}.json`);
    await writeFileAtomic(file, "long");
    expect(await readFile(file, "utf8")).toBe("long");
    expect(await readdir(dir)).toEqual([path.basename(file)]);
  });
});
