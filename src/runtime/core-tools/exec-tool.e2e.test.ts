import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, resultText, type Sandbox } from "./core-tools.test-support.js";

/** Polls (bounded) until `check` holds; the assertion is on the state reached, never on the time taken. */
async function eventually(check: () => Promise<boolean>, attempts = 400): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** Alive means present in /proc and not a zombie waiting to be reaped. */
async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function readPid(file: string): Promise<number> {
  return Number.parseInt((await readFile(file, "utf8")).trim(), 10);
}

describe("exec (real processes)", () => {
  let box: Sandbox;
  beforeEach(async () => {
    box = await makeSandbox({ execTimeoutMs: 1500, maxExecOutputBytes: 1000 });
  });
  afterEach(async () => {
    await box.remove();
  });

  it("runs the command in the workspace and reports exit code 0", async () => {
    const result = await box.tools.exec.execute({ command: "pwd" }, {});
    expect(result).toEqual({
      content: [{ type: "text", text: `Exit code 0.\n${await realpath(box.workspace)}\n` }],
      details: { exitCode: 0, timedOut: false, truncated: false },
    });
  });

  it("captures stdout and stderr and reports a non-zero exit code as an error", async () => {
    const result = await box.tools.exec.execute({ command: "echo out; echo err >&2; exit 3" }, {});
    expect(result.isError).toBe(true);
    expect(result.details).toEqual({ exitCode: 3, timedOut: false, truncated: false });
    const text = resultText(result);
    expect(text.startsWith("Exit code 3.\n")).toBe(true);
    expect(text).toContain("out\n");
    expect(text).toContain("err\n");
  });

  it("kills the command and its children at the timeout, capped at execTimeoutMs", async () => {
    const command = "sleep 30 & echo $! > child.pid; echo $$ > shell.pid; sleep 30";
    const result = await box.tools.exec.execute({ command, timeoutMs: 60_000 }, {});
    expect(result.isError).toBe(true);
    expect(result.details).toEqual({ exitCode: null, timedOut: true, truncated: false });
    expect(resultText(result)).toBe(
      "Timed out after 1500 ms; the command and its child processes were killed.\n(no output)",
    );
    const child = await readPid(path.join(box.workspace, "child.pid"));
    const shell = await readPid(path.join(box.workspace, "shell.pid"));
    expect(await eventually(async () => !(await isAlive(child)) && !(await isAlive(shell)))).toBe(true);
  });

  it("honours a shorter timeoutMs from the call", async () => {
    const result = await box.tools.exec.execute({ command: "sleep 30", timeoutMs: 200 }, {});
    expect(resultText(result)).toMatch(/^Timed out after 200 ms/);
  });

  it("stops background processes when the command returns, even one holding the output pipe", async () => {
    const quiet = await box.tools.exec.execute(
      { command: "sleep 30 >/dev/null 2>&1 & echo $! > bg.pid" },
      {},
    );
    expect(quiet.details).toEqual({ exitCode: 0, timedOut: false, truncated: false });
    const holding = await box.tools.exec.execute(
      { command: "sleep 30 & echo $! > bg2.pid; echo started" },
      {},
    );
    expect(holding.details).toEqual({ exitCode: 0, timedOut: false, truncated: false });
    expect(resultText(holding)).toBe("Exit code 0.\nstarted\n");
    for (const file of ["bg.pid", "bg2.pid"]) {
      const pid = await readPid(path.join(box.workspace, file));
      expect(await eventually(async () => !(await isAlive(pid)))).toBe(true);
    }
  });

  it("caps the output and says how much there was", async () => {
    const result = await box.tools.exec.execute({ command: "head -c 200000 /dev/zero | tr '\\0' a" }, {});
    expect(result.details).toEqual({ exitCode: 0, timedOut: false, truncated: true });
    expect(resultText(result)).toBe(
      `Exit code 0.\n${"a".repeat(1000)}\n[Output cut at 1000 of 200000 bytes; redirect to a file and read it in parts.]`,
    );
  });

  it("never splits a UTF-8 character at the output cap", async () => {
    const result = await box.tools.exec.execute(
      { command: "i=0; while [ $i -lt 600 ]; do printf 'é'; i=$((i+1)); done" },
      {},
    );
    const output = resultText(result).split("\n")[1];
    expect(output).toBe("é".repeat(500));
  });

  it("gives commands only PATH, HOME and LANG from the host environment", async () => {
    process.env.TOOLSIFT_TEST_SECRET = "s3cret-value";
    try {
      const result = await box.tools.exec.execute({ command: "env" }, {});
      const text = resultText(result);
      expect(text).not.toContain("s3cret-value");
      const names = text
        .split("\n")
        .slice(1)
        .filter((line) => line.includes("="))
        .map((line) => line.slice(0, line.indexOf("=")));
      expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "LANG"]));
      expect(
        names.filter((name) => !["PATH", "HOME", "LANG", "PWD", "SHLVL", "_", "OLDPWD"].includes(name)),
      ).toEqual([]);
    } finally {
      delete process.env.TOOLSIFT_TEST_SECRET;
    }
  });

  it("kills the command group when the call is cancelled", async () => {
    const controller = new AbortController();
    const pending = box.tools.exec.execute(
      { command: "echo $$ > shell.pid; sleep 30" },
      { signal: controller.signal },
    );
    const pidFile = path.join(box.workspace, "shell.pid");
    expect(
      await eventually(async () => (await readFile(pidFile, "utf8").catch(() => "")).trim().length > 0),
    ).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      "Cancelled; the command and its child processes were killed.\n(no output)",
    );
    const shell = await readPid(pidFile);
    expect(await eventually(async () => !(await isAlive(shell)))).toBe(true);
  });

  const badArguments: Array<[args: unknown, message: string]> = [
    [{ command: "" }, "exec: command is empty; give a shell command line."],
    [{ command: 5 }, 'exec: "command" must be a string.'],
    [{ command: "true", timeoutMs: 0 }, 'exec: "timeoutMs" must be a whole number of at least 1.'],
    [
      { command: "true", cwd: "/" },
      'exec has no argument "cwd"; it takes { command: string, timeoutMs?: integer }.',
    ],
  ];

  it.each(badArguments)("answers %j with an error result", async (args, message) => {
    expect(await box.tools.exec.execute(args, {})).toEqual({
      content: [{ type: "text", text: message }],
      isError: true,
    });
  });
});
