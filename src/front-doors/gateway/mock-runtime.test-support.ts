import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { type AssembledRuntime, assembleRuntime } from "../cli/assemble-runtime.js";

const EXAMPLE_PLUGINS = fileURLToPath(new URL("../../../examples/plugins", import.meta.url));

/** A runtime as the CLI assembles it (config file, the example weather plugin, file sessions) over the mock. */
export type MockRuntime = { mock: MockOpenAI; runtime: AssembledRuntime; close(): Promise<void> };

/**
 * Starts `toolsift mock-openai` on an ephemeral port and assembles the CLI's runtime over it in a temp folder
 * named after `prefix`; `close` stops both and removes the folder.
 */
export async function startMockRuntime(prefix: string): Promise<MockRuntime> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const mock = await startMockOpenAI({ port: 0 });
  const config = {
    models: {
      providers: {
        mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key", maxRetries: 0 },
      },
    },
    agents: { defaults: { model: "mock/toolsift-mock" } },
    plugins: { load: { paths: [EXAMPLE_PLUGINS] } },
  };
  const configPath = join(root, "toolsift.json");
  await writeFile(configPath, JSON.stringify(config));
  const runtime = await assembleRuntime({ configPath, env: { TOOLSIFT_STATE_DIR: join(root, "state") } });
  return {
    mock,
    runtime,
    async close() {
      await runtime.close();
      await mock.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
