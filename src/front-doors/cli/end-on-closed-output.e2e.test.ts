import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "dist/front-doors/cli/main.js");
/** More session lines than a pipe buffers (64 KiB), so the CLI is still writing when the reader leaves. */
const SESSION_COUNT = 3000;

let home = "";
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  if (!existsSync(bin))
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  home = await mkdtemp(join(tmpdir(), "toolsift-epipe-"));
  const sessions = join(home, "state", "agents", "main", "sessions");
  await mkdir(sessions, { recursive: true });
  const at = new Date().toISOString();
  for (let index = 0; index < SESSION_COUNT; index += 1) {
    const sessionKey = `s-${index}`;
    const header = { type: "session", version: 1, agentId: "main", sessionKey, at };
    await writeFile(join(sessions, `${sessionKey}.jsonl`), `${JSON.stringify(header)}\n`);
  }
  env = { ...process.env, TOOLSIFT_HOME: home, TOOLSIFT_STATE_DIR: join(home, "state") };
  delete env.TOOLSIFT_CONFIG;
}, 300_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe("a reader that closes the CLI's stdout", () => {
  it("`toolsift sessions | head -1`: one line, then the CLI ends quietly with exit 0", () => {
    // The user's own pipeline, in a real shell; PIPESTATUS holds the CLI's exit code.
    const script = `"${process.execPath}" "${bin}" sessions 2>"${join(home, "stderr.txt")}" | head -1; echo "exit=\${PIPESTATUS[0]}"`;
    const output = execFileSync("bash", ["-c", script], { env, encoding: "utf8" });
    const [first, status] = output.trimEnd().split("\n");
    expect(first).toMatch(/^\S+ {2}main\/s-\d+ {2}\d+ bytes$/u);
    expect(status).toBe("exit=0");
    expect(execFileSync("cat", [join(home, "stderr.txt")], { encoding: "utf8" })).toBe("");
  });

  it.each([
    ["sessions"],
    ["--help"],
    ["search", "weather", "--catalog", join(root, "examples/catalog.json")],
  ])("`toolsift %s` with stdout closed before it writes: exit 0, nothing on stderr", async (...args) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });
});
