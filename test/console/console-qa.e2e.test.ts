import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY } from "../../src/dev/qa/start-gateway-process.js";
import {
  childEnv,
  type GatewayUnderTest,
  gatewayProcess,
  tempDir,
} from "../operator-safety/operator-safety.test-support.js";
import { browserTestsRun, launchChromium } from "./console.test-support.js";

// An operator runs the QA scenario with `toolsift qa suite --keep-files`, starts a gateway on one lane's config
// and state as the command prints, and reads the session the QA run made in the console (a real Chromium):
// the sessions page lists it, its timeline shows the search, the candidates and the call of the plugin tool.

const run = promisify(execFile);
/** The QA scenario starts one gateway per lane; a bound against hangs, not a timing goal. */
const QA_BOUND_MS = 180_000;
/** The lane whose run searches the catalog, then calls the tool it found. */
const LANE = "default";
const TARGET = "fake_plugin_tool_17";

describe.skipIf(!browserTestsRun("console QA"))("a QA run's session in the console", () => {
  let root: string;
  let kept: string | undefined;
  let printed: string;
  let gateway: GatewayUnderTest;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    root = await tempDir("console-qa");
    const { stdout } = await run(
      process.execPath,
      [CLI_ENTRY, "qa", "suite", "--keep-files", "--output", join(root, "qa.json")],
      { env: childEnv({}), cwd: root, maxBuffer: 8 * 1024 * 1024 },
    );
    printed = stdout;
    kept = /Scenario files kept in (\S+) /u.exec(stdout)?.[1];
    if (kept === undefined) throw new Error(`qa suite --keep-files printed no folder:\n${stdout}`);
    const lane = join(kept, "lanes", LANE);
    const configPath = join(lane, "toolsift.json");
    gateway = await gatewayProcess(
      configPath,
      childEnv({ TOOLSIFT_HOME: lane, TOOLSIFT_STATE_DIR: join(lane, "state"), TOOLSIFT_CONFIG: configPath }),
    );
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  }, QA_BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    if (kept) await rm(kept, { recursive: true, force: true });
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("qa suite --keep-files prints the folder and the command that opens a lane's sessions", () => {
    expect(printed).toContain("All assertions passed.");
    expect(printed).toContain(
      `TOOLSIFT_STATE_DIR=${join(kept ?? "", "lanes", LANE, "state")} toolsift gateway`,
    );
  });

  it("the sessions page lists the QA run's session; its timeline shows the search, candidates and call", async () => {
    // No keys in the lane's config: the loopback caller is signed in at once.
    await page.goto(`${gateway.url}/console`);
    await page.waitForURL(/\/console\/sessions$/u);
    const link = page.getByRole("link", { name: `qa-${LANE}` });
    await link.waitFor();
    await link.click();
    await page.waitForURL(/\/console\/session\?/u);
    await expect.poll(() => page.locator("main").textContent()).toContain("Run completed");
    const search = page
      .locator("main section, main article, main div")
      .filter({ hasText: "Candidates the model saw" });
    expect(await search.count()).toBeGreaterThan(0);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("Search");
    expect(text).toContain(TARGET);
    expect(text).toContain(`Call target ${TARGET}`);
  });
});
