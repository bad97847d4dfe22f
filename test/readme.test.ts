import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startMockOpenAI } from "../src/mock-openai/index.js";
import { writeFakePlugin } from "../src/qa/index.js";
import { startGatewayProcess } from "../src/qa/start-gateway-process.js";

const execFileAsync = promisify(execFile);
const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The fenced blocks of the README that carry `<!-- run: NAME -->` just above them. */
function runnableBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  const pattern = /<!-- run: ([\w-]+) -->\s*```(?:js|ts|javascript)\n([\s\S]*?)```/g;
  for (const match of readme.matchAll(pattern)) blocks.set(match[1] ?? "", match[2] ?? "");
  return blocks;
}

describe("README examples", () => {
  it("runs the library example against the built package", () => {
    const code = runnableBlocks().get("library-example");
    expect(code, "README must keep its library example").toBeDefined();
    // A module inside the package folder resolves "toolsift" to this package (self-reference via exports).
    const dir = mkdtempSync(join(root, ".readme-"));
    try {
      const file = join(dir, "example.mjs");
      writeFileSync(file, code ?? "");
      const output = execFileSync(process.execPath, [file], { cwd: root, encoding: "utf8" });
      expect(output).toContain("native:weather:get_forecast");
      expect(output).toContain("FORECAST Berlin");
      expect(output).toContain("### Deferred Tool Schemas");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs the openai client example against a real gateway process backed by the mock provider", async () => {
    const code = runnableBlocks().get("openai-client");
    expect(code, "README must keep its openai client example").toBeDefined();
    const dir = mkdtempSync(join(root, ".readme-"));
    const mock = await startMockOpenAI({ port: 0 });
    let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | undefined;
    try {
      const pluginDir = await writeFakePlugin(join(dir, "plugins", "fake-plugin"));
      const configPath = join(dir, "toolsift.json");
      writeFileSync(
        configPath,
        JSON.stringify({
          models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "x" } } },
          agents: { defaults: { model: "mock/planner" } },
          plugins: { load: { paths: [pluginDir] } },
        }),
      );
      gateway = await startGatewayProcess({
        configPath,
        env: { ...process.env, TOOLSIFT_HOME: dir, TOOLSIFT_STATE_DIR: join(dir, "state") },
      });
      const file = join(dir, "client.mjs");
      writeFileSync(file, (code ?? "").replace("http://127.0.0.1:18789", gateway.url));
      // Asynchronous: the mock provider answers from this process, so its event loop must keep running.
      const { stdout } = await execFileAsync(process.execPath, [file], { cwd: root, encoding: "utf8" });
      expect(stdout).toContain("FAKE_PLUGIN_OK fake_plugin_tool_17");
    } finally {
      await gateway?.stop();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("builds an executable bin, so `npx toolsift` runs from a fresh clone", () => {
    // npx runs the package's own bin as a program: without the executable bit the shell refuses it.
    const output = execFileSync(join(root, "dist/cli/main.js"), ["--version"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(output.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("keeps the two setup commands", () => {
    expect(readme).toContain(
      "npm ci && npx toolsift qa suite --provider-mode mock-openai --scenario tool-search-gateway-e2e",
    );
    expect(readme).toContain(
      'npx toolsift search "look up the price of bitcoin" --catalog examples/catalog.json',
    );
    expect(readme).toContain("npm test");
    expect(readFileSync(join(root, ".ci/run"), "utf8")).toContain("npm test");
  });
});
