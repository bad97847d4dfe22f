import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const script = fileURLToPath(new URL("./gateway-command.test-support.ts", import.meta.url));

type GatewayProcess = {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr matches `pattern`. */
  waitFor(stream: "stdout" | "stderr", pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Starts the gateway command as a real child process with a temp state directory. */
async function spawnGateway(...args: string[]): Promise<GatewayProcess> {
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-gateway-cli-"));
  const child = spawn(process.execPath, ["--import", "tsx", script, stateDir, "gateway", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const text = { stdout: "", stderr: "" };
  const waiters: Array<() => void> = [];
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].setEncoding("utf8").on("data", (chunk: string) => {
      text[stream] += chunk;
      for (const wake of waiters.splice(0)) wake();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, signal) => {
      resolve({ code, signal });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    await rm(stateDir, { recursive: true, force: true });
  });
  const waitFor = async (stream: "stdout" | "stderr", pattern: RegExp): Promise<RegExpMatchArray> => {
    for (;;) {
      const match = text[stream].match(pattern);
      if (match) return match;
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`gateway exited before ${pattern} on ${stream}:\n${text.stdout}\n${text.stderr}`);
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, stdout: () => text.stdout, stderr: () => text.stderr, waitFor, exited };
}

/** A port nothing listens on right now (taken, then released). */
async function takenPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("toolsift gateway (real process)", () => {
  it("prints the address for --port 0, drains an in-flight run on SIGTERM, and exits 0", async () => {
    const gateway = await spawnGateway("--port", "0");
    const [, url] = await gateway.waitFor(
      "stdout",
      /toolsift gateway listening on (http:\/\/127\.0\.0\.1:\d+)\n/u,
    );
    expect(url).not.toMatch(/:0$/u);
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ ok: true, providers: {} });

    const inFlight = fetch(`${url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: "hold:drain" }),
    });
    await gateway.waitFor("stderr", /run started: hold:drain/u);
    gateway.child.kill("SIGTERM");

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { output_text: string }).output_text).toBe("released hold:drain");
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    const stderr = gateway.stderr();
    expect(stderr).toContain("SIGTERM received, draining in-flight runs");
    expect(stderr).toContain("draining: true");
    expect(stderr).toMatch(/POST \/v1\/responses 200 \d+ms/u);
    expect(stderr.indexOf("POST /v1/responses 200")).toBeLessThan(stderr.indexOf("toolsift gateway stopped"));
    expect(gateway.stdout()).toBe(`toolsift gateway listening on ${url}\n`);
  });

  it("stops on SIGINT with exit code 0", async () => {
    const gateway = await spawnGateway("--port", "0", "--bind", "127.0.0.1");
    await gateway.waitFor("stdout", /listening on/u);
    gateway.child.kill("SIGINT");
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(gateway.stderr()).toContain("toolsift gateway stopped");
  });

  it("exits 1 with a clear message when the port is in use", async () => {
    const busy = await takenPort();
    onTestFinished(() => busy.release());
    const gateway = await spawnGateway("--port", String(busy.port));
    expect(await gateway.exited).toEqual({ code: 1, signal: null });
    expect(gateway.stderr()).toContain(`cannot listen on 127.0.0.1:${busy.port}: the port is in use`);
    expect(gateway.stderr()).not.toMatch(/\n\s+at\s/u);
    expect(gateway.stdout()).toBe("");
  });

  it("exits 2 on a bad --port", async () => {
    const gateway = await spawnGateway("--port", "99999");
    expect(await gateway.exited).toEqual({ code: 2, signal: null });
    expect(gateway.stderr()).toContain("port must be an integer from 0 to 65535");
  });
});
