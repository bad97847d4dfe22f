import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const commandModule = fileURLToPath(new URL("./mock-openai-command.ts", import.meta.url));

let scratch = "";
let entry = "";
const children = new Set<ChildProcess>();

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "toolsift-mock-cli-"));
  entry = join(scratch, "mock-openai-entry.mts");
  // A stand-in for the bin until the command is registered in run-cli: the real command in a real process.
  await writeFile(
    entry,
    `import { createMockOpenAICommand } from ${JSON.stringify(commandModule)};
const io = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
try {
  await createMockOpenAICommand(io).parseAsync(process.argv.slice(2), { from: "user" });
} catch (error) {
  process.stderr.write("error: " + error.message + "\\n");
  process.exitCode = 1;
}
`,
  );
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Starts the command in a child process and resolves with its base URL once it prints it. */
function start(
  ...args: string[]
): Promise<{ child: ChildProcess; baseUrl: string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /Mock OpenAI provider listening on (\S+)\n/u.exec(stdout);
      if (match) resolve({ child, baseUrl: match[1] ?? "", exit });
    });
    void exit.then((code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
  });
}

describe.each(["SIGTERM", "SIGINT"] as const)("toolsift mock-openai as a process (%s)", (signal) => {
  it(`serves on a free port and exits 0 on ${signal}`, async () => {
    const { child, baseUrl, exit } = await start("--port", "0");
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/u);
    const answer = await fetch(`${baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "ping" }] }),
    });
    const json = (await answer.json()) as { choices: Array<{ message: { content: string } }> };
    expect(json.choices[0]?.message.content).toBe("mock: ping");
    child.kill(signal);
    expect(await exit).toBe(0);
  });
});
