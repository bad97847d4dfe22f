import { existsSync } from "node:fs";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import {
  type GatewayUnderTest,
  gatewayProcess,
  listFiles,
  postResponse,
  sessionFileEvents,
  tempDir,
  writeConfig,
} from "./operator-safety.test-support.js";
import { callThenAnswer, type ScriptedModel, startScriptedModel } from "./scripted-model.test-support.js";

/** Content of the file outside the workspace that no run may read or change. */
const OUTSIDE_SECRET = "OUTSIDE-WORKSPACE-CONTENT-7f3a";

/** One escape attempt: the core tool call a model makes, and what must be true afterwards. */
interface EscapeProbe {
  probe: string;
  tool: "read" | "write" | "edit";
  args: (paths: Paths) => Record<string, unknown>;
}

interface Paths {
  root: string;
  workspace: string;
  outsideFile: string;
  outsideDir: string;
}

const ESCAPES: EscapeProbe[] = [
  { probe: "write ../ (parent)", tool: "write", args: () => ({ path: "../outside-new.txt", content: "x" }) },
  {
    probe: "write sub/../../ (parent through a folder)",
    tool: "write",
    args: () => ({ path: "sub/../../outside-new.txt", content: "x" }),
  },
  {
    probe: "write absolute path outside",
    tool: "write",
    args: (paths) => ({ path: join(paths.root, "outside-new.txt"), content: "x" }),
  },
  {
    probe: "write through a symlinked folder pointing out",
    tool: "write",
    args: () => ({ path: "link-dir/evil.txt", content: "x" }),
  },
  {
    probe: "write onto a symlink to an outside file",
    tool: "write",
    args: () => ({ path: "link-file", content: "overwritten" }),
  },
  { probe: "read ../outside.txt", tool: "read", args: () => ({ path: "../outside.txt" }) },
  { probe: "read absolute path outside", tool: "read", args: (paths) => ({ path: paths.outsideFile }) },
  { probe: "read a symlink to an outside file", tool: "read", args: () => ({ path: "link-file" }) },
  { probe: "read /etc/passwd", tool: "read", args: () => ({ path: "/etc/passwd" }) },
  {
    probe: "edit ../outside.txt",
    tool: "edit",
    args: () => ({ path: "../outside.txt", oldText: "OUTSIDE", newText: "CHANGED" }),
  },
  {
    probe: "edit through a symlinked folder",
    tool: "edit",
    args: () => ({ path: "link-dir/inner.txt", oldText: "inner", newText: "CHANGED" }),
  },
];

describe("core tools through a gateway run stay inside agents.defaults.workspace", () => {
  let paths: Paths;
  let stateDir: string;
  let mock: MockOpenAI;
  let scripted: ScriptedModel;
  let gateway: GatewayUnderTest;

  beforeAll(async () => {
    const root = await tempDir("core-tools");
    paths = {
      root,
      workspace: join(root, "workspace"),
      outsideFile: join(root, "outside.txt"),
      outsideDir: join(root, "outside-dir"),
    };
    stateDir = join(root, "state");
    await mkdir(paths.workspace, { recursive: true });
    await mkdir(paths.outsideDir, { recursive: true });
    await writeFile(paths.outsideFile, `${OUTSIDE_SECRET}\n`);
    await writeFile(join(paths.outsideDir, "inner.txt"), "inner\n");
    await symlink(paths.outsideDir, join(paths.workspace, "link-dir"));
    await symlink(paths.outsideFile, join(paths.workspace, "link-file"));
    mock = await startMockOpenAI({ port: 0 });
    scripted = await startScriptedModel(callThenAnswer([]));
    const { configPath, env } = await writeConfig(root, stateDir, {
      models: {
        providers: {
          mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key", maxRetries: 0 },
          scripted: { api: "openai-responses", baseUrl: scripted.baseUrl, apiKey: "mock-key", maxRetries: 0 },
        },
      },
      agents: {
        defaults: { model: "mock/toolsift-mock", workspace: paths.workspace },
        list: [{ id: "scripted", model: "scripted/model" }],
      },
    });
    gateway = await gatewayProcess(configPath, env);
  });

  afterAll(async () => {
    await gateway?.stop();
    await mock?.close();
    await scripted?.close();
    if (paths) await rm(paths.root, { recursive: true, force: true });
  });

  it("the mock model writes and then reads a file in the workspace (target=write, target=read)", async () => {
    const wrote = await postResponse(gateway.url, { input: "target=write", session: "core-write" });
    expect(wrote.status, wrote.raw).toBe(200);
    expect(wrote.text).toBe('Done. Created "qa" (2 bytes).');
    expect(await readFile(join(paths.workspace, "qa"), "utf8")).toBe("qa");

    const read = await postResponse(gateway.url, { input: "target=read", session: "core-read" });
    expect(read.status, read.raw).toBe(200);
    expect(read.text).toMatch(/^Done\. /u);
    expect(read.text).toContain("qa");
    const events = await sessionFileEvents(stateDir, "main", "core-read");
    const result = events.find((event) => event.type === "tool-result" && event.name === "read");
    expect(result?.isError).toBe(false);
    expect(result?.toolId).toBe("native:core:read");
  });

  it("refuses every path escape a model tries in one run, and changes nothing outside", async () => {
    const outsideBefore = (await listFiles(paths.root)).filter((file) => !file.startsWith(stateDir)).sort();
    scripted.setScript(
      callThenAnswer([
        ...ESCAPES.map((attempt) => ({
          type: "function_call" as const,
          name: attempt.tool,
          arguments: attempt.args(paths),
        })),
        // The control row: a path inside the workspace, in a new folder.
        { type: "function_call", name: "write", arguments: { path: "nested/ok.txt", content: "inside" } },
      ]),
    );
    const answer = await postResponse(gateway.url, {
      input: "try the paths",
      session: "escapes",
      agent: "scripted",
    });
    expect(answer.status, answer.raw).toBe(200);

    const events = await sessionFileEvents(stateDir, "scripted", "escapes");
    const results = events.filter((event) => event.type === "tool-result");
    expect(results.length).toBe(ESCAPES.length + 1);
    for (const [index, attempt] of ESCAPES.entries()) {
      const result = results[index];
      expect(result?.name, attempt.probe).toBe(attempt.tool);
      expect(result?.isError, `${attempt.probe}: ${String(result?.output)}`).toBe(true);
      expect(String(result?.output), attempt.probe).toMatch(/is outside the workspace/u);
      expect(String(result?.output), attempt.probe).not.toContain(OUTSIDE_SECRET);
      expect(String(result?.output), attempt.probe).not.toMatch(/root:x:0:0/u);
    }
    const control = results[ESCAPES.length];
    expect(control?.isError, String(control?.output)).toBe(false);
    expect(await readFile(join(paths.workspace, "nested", "ok.txt"), "utf8")).toBe("inside");

    // Outside the workspace nothing was created, changed or read into the answer.
    expect(await readFile(paths.outsideFile, "utf8")).toBe(`${OUTSIDE_SECRET}\n`);
    expect(await readFile(join(paths.outsideDir, "inner.txt"), "utf8")).toBe("inner\n");
    expect(existsSync(join(paths.root, "outside-new.txt"))).toBe(false);
    expect(existsSync(join(paths.outsideDir, "evil.txt"))).toBe(false);
    const outsideAfter = (await listFiles(paths.root)).filter((file) => !file.startsWith(stateDir)).sort();
    expect(outsideAfter).toEqual([...outsideBefore, join(paths.workspace, "nested", "ok.txt")].sort());
    expect(answer.text).not.toContain(OUTSIDE_SECRET);
  });
});
