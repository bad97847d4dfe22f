import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { WEATHER_PLUGIN, writeTestPlugin } from "../../src/runtime/runner/runner.test-support.js";
import {
  type GatewayUnderTest,
  gatewayProcess,
  getPath,
  postResponse,
  tempDir,
  writeConfig,
} from "../operator-safety/operator-safety.test-support.js";
import { browserTestsRun, launchChromium, signInAt } from "./console.test-support.js";

// An agent whose runs use Code Mode, against the built `toolsift gateway` over the mock provider:
// `GET /v1/tools/effective` reports what a real run declared (exec and wait, not the Tool Search controls)
// and says Code Mode is on, and the console's Tools page shows "Code Mode" where it shows Tool Search's state.

const ALICE = {
  id: "alice",
  token: "tsk-console-codemode-alice-9e8d7c6b5a4f3e2d1c0b",
  scopes: ["runs", "sessions:read"],
};
/** Bound on starting the mock, the gateway and Chromium on a busy machine (against hangs, not a timing goal). */
const START_BOUND_MS = 60_000;

/** The effective surface as the route answers it (the fields this test reads). */
type Surface = {
  toolSearch: { enabled: boolean; mode: string };
  codeMode?: { enabled: boolean };
  tools: Array<{ id: string; visibility: string }>;
  declaredTools: string[];
  directory?: string;
};

describe("an agent whose runs use Code Mode", () => {
  let root: string;
  let mock: MockOpenAI;
  let gateway: GatewayUnderTest;

  beforeAll(async () => {
    root = await tempDir("console-tools-code-mode");
    mock = await startMockOpenAI({ port: 0 });
    const weather = await writeTestPlugin(join(root, "plugins"), WEATHER_PLUGIN);
    const { configPath, env } = await writeConfig(root, join(root, "state"), {
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [weather] } },
      tools: { toolSearch: { enabled: true, mode: "tools" } },
      codeMode: { enabled: true },
      gateway: { auth: { keys: [ALICE] } },
    });
    gateway = await gatewayProcess(configPath, env);
  }, START_BOUND_MS);

  afterAll(async () => {
    await gateway?.stop();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("GET /v1/tools/effective reports what a real run declared, and that Code Mode is on", async () => {
    const effective = await getPath(gateway.url, "/v1/tools/effective", `Bearer ${ALICE.token}`);
    expect(effective.status, effective.raw).toBe(200);
    const surface = effective.body as Surface;
    expect(surface.codeMode).toEqual({ enabled: true });
    expect(surface.toolSearch.enabled).toBe(false);
    expect(surface.declaredTools).toEqual(["exec", "wait"]);
    expect(surface.directory).toBeUndefined();
    expect(surface.tools.find((tool) => tool.id === "native:weather:weather_forecast")?.visibility).toBe(
      "catalog",
    );

    const before = mock.requests().length;
    const run = await postResponse(gateway.url, {
      input: "code mode qa check target=weather_forecast",
      session: "code-mode-run",
      token: ALICE.token,
    });
    expect(run.status, run.raw).toBe(200);
    expect(run.text).toContain("weather_forecast ok");
    const first = mock.requests()[before];
    const declared = (JSON.parse(first?.body ?? "{}") as { tools?: Array<{ name?: string }> }).tools;
    expect(declared?.map((tool) => tool.name)).toEqual(surface.declaredTools);
  });

  describe.skipIf(!browserTestsRun("console Code Mode tools"))("the console's Tools page", () => {
    it('shows "Code Mode" where it shows Tool Search\'s state, and no search box', async () => {
      const browser: Browser = await launchChromium();
      try {
        const page: Page = await (
          await browser.newContext({ viewport: { width: 1200, height: 800 } })
        ).newPage();
        await signInAt(page, gateway.url, ALICE.token);
        await page.goto(`${gateway.url}/console/tools`);
        const tools = page.locator("#tools");
        await tools.getByText("Code Mode on (exec and wait replace Tool Search)").waitFor();
        const text = (await tools.textContent()) ?? "";
        expect(text).not.toContain("Tool Search on");
        expect(text).toContain("Declared: exec, wait");
        expect(text).toContain("Code Mode is on for this agent");
        expect(await page.locator("#tool-query").count()).toBe(0);
        const row = page.locator("#tools tr", { hasText: "native:weather:weather_forecast" });
        expect(await row.textContent()).toContain("reached inside a Code Mode cell");
        const shots = process.env.TOOLSIFT_CONSOLE_SCREENSHOTS;
        if (shots !== undefined) {
          await mkdir(shots, { recursive: true });
          await page.screenshot({ path: join(shots, "tools-code-mode.png") });
        }
      } finally {
        await browser.close();
      }
    });
  });
});
