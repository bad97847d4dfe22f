import {
  chmod,
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
import { loadConfig, MAX_CONFIG_FILE_BYTES } from "../../runtime/config/index.js";
import { refusal } from "../../shared/errors/toolsift-error.test-support.js";
import { editConfigFile } from "./edit-config.js";
import type { ConfigEdit } from "./edit-config-text.js";
import { writeConfigFile } from "./write-config-file.js";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "toolsift-edit-"));
  file = path.join(dir, "toolsift.json");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The bytes, mtime and directory listing: what "untouched" means. */
async function snapshot() {
  return {
    bytes: await readFile(file),
    mtime: (await stat(file)).mtimeMs,
    entries: (await readdir(dir)).sort(),
  };
}

const SAMPLE = `// toolsift config: edited by hand and by toolsift config set
{
  models: {
    providers: {
      ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" }, // local
    },
  },
  tools: {
    /* Tool Search */
    toolSearch: { mode: "tools", searchDefaultLimit: 8 },
    deny: ["exec"],
  },
}
`;

describe("editConfigFile", () => {
  it("creates a missing file (and its directory) from {}, readable by its owner only", async () => {
    const nested = path.join(dir, "home", "toolsift.json");
    const result = await editConfigFile({
      file: nested,
      edits: [{ op: "set", path: ["tools", "toolSearch"], value: true }],
    });
    expect(result).toMatchObject({ created: true, changed: true, file: nested });
    expect(await readFile(nested, "utf8")).toBe("{\n  tools: { toolSearch: true },\n}\n");
    expect((await stat(nested)).mode & 0o777).toBe(0o600);
    expect((await loadConfig({ configPath: nested, env: {} })).config).toEqual({
      tools: { toolSearch: true },
    });
  });

  it("changes only the edited value; comments and formatting elsewhere stay byte for byte", async () => {
    await writeFile(file, SAMPLE);
    await editConfigFile({
      file,
      edits: [{ op: "set", path: ["tools", "toolSearch", "mode"], value: "directory" }],
    });
    expect(await readFile(file, "utf8")).toBe(SAMPLE.replace('mode: "tools"', 'mode: "directory"'));
    await editConfigFile({ file, edits: [{ op: "unset", path: ["tools", "deny"] }] });
    expect(await readFile(file, "utf8")).toBe(
      SAMPLE.replace('mode: "tools"', 'mode: "directory"').replace('    deny: ["exec"],\n', ""),
    );
    expect(await readdir(dir)).toEqual(["toolsift.json"]);
  });

  it("refuses an edit that makes the file invalid, listing path: reason, and leaves the file untouched", async () => {
    await writeFile(file, SAMPLE);
    const before = await snapshot();
    const edits: ConfigEdit[][] = [
      [{ op: "set", path: ["tools", "toolSearch", "mode"], value: "code" }],
      [{ op: "set", path: ["gateway", "port"], value: "eighty" }],
      [{ op: "set", path: ["tools", "toolSearch", "serachDefaultLimit"], value: 4 }],
      [{ op: "unset", path: ["models", "providers", "ollama", "api"] }],
    ];
    const messages: string[] = [];
    for (const edit of edits) {
      const error = await refusal(() => editConfigFile({ file, edits: edit }));
      expect(error.code).toBe("CONFIG_INVALID");
      messages.push(error.message);
    }
    expect(messages[0]).toMatch(
      /^Refused: the change would make .*toolsift\.json invalid:\ntools\.toolSearch\.mode: "code" is retired/u,
    );
    expect(messages[1]).toContain("gateway.port: ");
    expect(messages[2]).toContain("tools.toolSearch.serachDefaultLimit: unknown key");
    expect(messages[3]).toContain("models.providers.ollama.api: required");
    for (const message of messages) expect(message.endsWith("The file was not changed.")).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses edits that cannot apply and files that cannot be parsed, without writing", async () => {
    await writeFile(file, SAMPLE);
    const before = await snapshot();
    await expect(
      editConfigFile({ file, edits: [{ op: "unset", path: ["tools", "allow"] }] }),
    ).rejects.toThrow("No value at tools.allow.");
    await writeFile(file, "{ tools: { ");
    const broken = await snapshot();
    const error = await refusal(() =>
      editConfigFile({ file, edits: [{ op: "set", path: ["a"], value: 1 }] }),
    );
    expect(error.message).toMatch(/^Invalid config .*toolsift\.json:1:\d+: /u);
    expect(await snapshot()).toEqual(broken);
    expect(before.entries).toEqual(broken.entries);
  });

  it("lets a broken file be repaired one key at a time: old problems do not block other edits", async () => {
    const text = '{ tools: { toolSearch: { mode: "code", codeTimeoutMs: 2500 } } }\n';
    await writeFile(file, text);
    const first = await editConfigFile({
      file,
      edits: [{ op: "set", path: ["tools", "toolSearch", "mode"], value: "tools" }],
    });
    expect(first.remainingIssues.map((issue) => issue.path)).toEqual(["tools.toolSearch.codeTimeoutMs"]);
    const second = await editConfigFile({
      file,
      edits: [{ op: "unset", path: ["tools", "toolSearch", "codeTimeoutMs"] }],
    });
    expect(second.remainingIssues).toEqual([]);
    expect(await readFile(file, "utf8")).toBe('{ tools: { toolSearch: { mode: "tools" } } }\n');
  });

  it("writes nothing when the edit leaves the text as it was", async () => {
    await writeFile(file, SAMPLE);
    const before = await snapshot();
    const result = await editConfigFile({
      file,
      edits: [{ op: "set", path: ["tools", "deny", 0], value: "exec" }],
    });
    expect(result.changed).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  it("keeps the file's permissions, writes through a symbolic link, and backs up the old bytes on request", async () => {
    const real = path.join(dir, "real.json5");
    await writeFile(real, SAMPLE);
    await chmod(real, 0o640);
    await symlink(real, file);
    const result = await editConfigFile({
      file,
      edits: [{ op: "set", path: ["codeMode", "enabled"], value: true }],
      backup: true,
    });
    expect(result.file).toBe(real);
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect((await stat(real)).mode & 0o777).toBe(0o640);
    expect(await readFile(real, "utf8")).toContain("codeMode: { enabled: true },\n}");
    expect(result.backupPath).toMatch(/real\.json5\.bak-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/u);
    expect(await readFile(result.backupPath as string, "utf8")).toBe(SAMPLE);
    expect((await stat(result.backupPath as string)).mode & 0o777).toBe(0o640);
  });

  it("refuses a path that is not a regular file, or is too large", async () => {
    await mkdir(file);
    await expect(editConfigFile({ file, edits: [{ op: "set", path: ["a"], value: 1 }] })).rejects.toThrow(
      /is not a regular file/u,
    );
    const big = path.join(dir, "big.json");
    await writeFile(big, `{ a: "${"x".repeat(MAX_CONFIG_FILE_BYTES)}" }`);
    await expect(
      editConfigFile({ file: big, edits: [{ op: "set", path: ["a"], value: 1 }] }),
    ).rejects.toThrow(/the limit is \d+ bytes/u);
  });
});

describe("writeConfigFile", () => {
  it("replaces the file, keeps the given mode and leaves no temp file", async () => {
    await writeFile(file, "old");
    await writeConfigFile(file, "new", { mode: 0o640 });
    expect(await readFile(file, "utf8")).toBe("new");
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(["toolsift.json"]);
  });

  it("creates a new file for the owner only", async () => {
    await writeConfigFile(file, "{}\n");
    expect((await stat(file)).mode & 0o077).toBe(0);
  });

  it("removes its temp file and keeps the target when the final rename fails", async () => {
    const target = path.join(dir, "occupied");
    await mkdir(target);
    await writeFile(path.join(target, "inside"), "x");
    const error = await refusal(() => writeConfigFile(target, "data"));
    expect(error.message).toMatch(/^Could not write .*occupied \(.+\)\. The file was not changed\.$/u);
    expect((await readdir(dir)).sort()).toEqual(["occupied"]);
    expect(await readdir(target)).toEqual(["inside"]);
  });
});
