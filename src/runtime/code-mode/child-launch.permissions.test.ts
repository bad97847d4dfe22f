import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellChildLaunch, childNodeFlags, detectPermissionFlag } from "./child-launch.js";
import { quickJsFiles } from "./quickjs-files.js";
import { resolveCodeModeLimits } from "./resolve-code-mode-limits.js";

/**
 * The second layer on its own: a program with direct access to Node (as if QuickJS had been escaped), run with
 * exactly the flags and environment of a Code Mode child, tries what the first layer already prevents.
 */
const PROBE = `
const report = {};
const attempt = async (name, work) => {
  try { report[name] = { ok: true, value: await work() }; } catch (error) { report[name] = { ok: false, code: error.code ?? error.name, message: String(error.message) }; }
};
const [target, secret, quickjsFile, parentPid] = process.argv.slice(1);
const fs = await import("node:fs");
await attempt("writeFile", () => fs.writeFileSync(target, "escaped"));
await attempt("readSecret", () => fs.readFileSync(secret, "utf8"));
await attempt("readQuickJs", () => fs.readFileSync(quickjsFile).length > 0);
await attempt("childProcess", async () => (await import("node:child_process")).execSync("kill -0 " + parentPid).toString());
await attempt("spawn", async () => { (await import("node:child_process")).spawn("sh", ["-c", "true"]); return "spawned"; });
await attempt("worker", async () => { const { Worker } = await import("node:worker_threads"); new Worker("process.exit(0)", { eval: true }); return "worker"; });
await attempt("eval", () => eval("1 + 1"));
await attempt("newFunction", () => new Function("return 1")());
report.env = Object.keys(process.env);
report.signalParent = typeof process.kill;
process.send(JSON.stringify(report));
`;

type Attempt = { ok: true; value: unknown } | { ok: false; code: string; message: string };
type Report = Record<string, Attempt> & { env: string[]; signalParent: string };

let folder: string;
let target: string;
let secret: string;
let report: Report;
const marker = `marker_${randomBytes(8).toString("hex")}`;

beforeAll(async () => {
  process.env.TOOLSIFT_PERMISSION_MARKER = marker;
  folder = await mkdtemp(join(tmpdir(), "toolsift-permissions-"));
  target = join(folder, "written.txt");
  secret = join(folder, "secret.txt");
  await writeFile(secret, marker);
  const flags = await childNodeFlags(resolveCodeModeLimits({}));
  const quickjsFile = join(quickJsFiles().readPaths[0] as string, "package.json");
  const child = spawn(
    process.execPath,
    [...flags, "--input-type=module", "-e", PROBE, "--", target, secret, quickjsFile, String(process.pid)],
    { env: {}, stdio: ["ignore", "ignore", "pipe", "ipc"], serialization: "json" },
  );
  report = await new Promise<Report>((resolve, reject) => {
    child.once("message", (raw) => resolve(JSON.parse(String(raw)) as Report));
    child.once("exit", (code) => reject(new Error(`the probe child exited with ${code} before reporting`)));
  });
  child.kill("SIGKILL");
});

afterAll(async () => {
  delete process.env.TOOLSIFT_PERMISSION_MARKER;
  await rm(folder, { recursive: true, force: true });
});

describe("a Code Mode child's own permissions (defence in depth)", () => {
  it.each([
    ["writing a file", "writeFile", "ERR_ACCESS_DENIED"],
    ["reading a file outside the QuickJS packages", "readSecret", "ERR_ACCESS_DENIED"],
    ["running a command (e.g. to signal the parent)", "childProcess", "ERR_ACCESS_DENIED"],
    ["spawning a process", "spawn", "ERR_ACCESS_DENIED"],
    ["starting a worker", "worker", "ERR_ACCESS_DENIED"],
  ])("denies %s", (_name, key, code) => {
    expect(report[key]).toMatchObject({ ok: false, code });
  });

  it("allows reading the QuickJS package files it loads", () => {
    expect(report.readQuickJs).toEqual({ ok: true, value: true });
  });

  it("wrote nothing", () => {
    expect(existsSync(target)).toBe(false);
  });

  it("has an empty environment: the parent's variables are not there", () => {
    expect(report.env).toEqual([]);
    expect(JSON.stringify(report)).not.toContain(marker);
  });

  it("refuses code generation from strings in the host V8", () => {
    expect(report.eval).toMatchObject({ ok: false, code: "EvalError" });
    expect(report.newFunction).toMatchObject({ ok: false, code: "EvalError" });
  });

  it("starts cells with the permission flag this Node understands, an empty read grant list beyond QuickJS, and no write grant", async () => {
    const flag = await detectPermissionFlag();
    expect(["--permission", "--experimental-permission"]).toContain(flag);
    const launch = await cellChildLaunch(resolveCodeModeLimits({}));
    const grants = launch.args.filter((arg) => arg.startsWith("--allow-"));
    expect(grants.every((arg) => arg.startsWith("--allow-fs-read="))).toBe(true);
    expect(grants).toHaveLength(quickJsFiles().readPaths.length);
    expect(launch.args).toContain(flag);
    expect(launch.args).toContain("--disallow-code-generation-from-strings");
  });
});
