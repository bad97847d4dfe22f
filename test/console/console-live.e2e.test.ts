import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import {
  type GatewayAnswer,
  type GatewayUnderTest,
  gatewayProcess,
  pollFor,
  postResponse,
  tempDir,
  writeConfig,
} from "../operator-safety/operator-safety.test-support.js";
import {
  browserTestsRun,
  HOSTILE_TOOL,
  launchChromium,
  newPageWatch,
  screenshotFolder,
  signInAt,
  watchedContext,
  writeHostilePlugin,
} from "./console.test-support.js";

// Pushed updates in a real Chromium, against the built `toolsift gateway` over the mock provider: an open
// timeline shows a run's search, the approval and the call as they are written (appended, the reader's place
// kept), the approvals page adds a waiting call and drops it once it is decided elsewhere, the timeline says
// who decided, and the sessions page filters by status and by text inside the conversation.

const ALICE = {
  id: "alice",
  token: "tsk-live-alice-2c4e6a8b0d1f3e5a7c9b1d3f",
  scopes: ["runs", "sessions:read", "approvals"],
};
const OPS = { id: "ops", token: "tsk-live-ops-9f8e7d6c5b4a39281706f5e4", scopes: ["admin"] };
const SESSION = "live-trip";
const OTHER = "live-chores";

/** Bound on a pushed change reaching the page (against hangs, not a timing goal). */
const PUSH_BOUND_MS = 15_000;
/** Bound on starting the mock, the gateway and Chromium on a busy machine. */
const START_BOUND_MS = 60_000;

describe.skipIf(!browserTestsRun("console live"))("the console's pushed updates in a real Chromium", () => {
  let root: string;
  let shots: string;
  let mock: MockOpenAI;
  let gateway: GatewayUnderTest;
  let browser: Browser;
  let alice: BrowserContext;
  let timeline: Page;
  let approvals: Page;
  let held: Promise<GatewayAnswer>;
  const watch = newPageWatch();
  const { consoleErrors } = watch;

  beforeAll(async () => {
    root = await tempDir("console-live");
    shots = await screenshotFolder(root);
    mock = await startMockOpenAI({ port: 0 });
    const plugin = await writeHostilePlugin(root, join(root, "marker.jsonl"));
    const { configPath, env } = await writeConfig(root, join(root, "state"), {
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [plugin] } },
      tools: { approval: { require: [HOSTILE_TOOL], mode: "ask", timeoutMs: 120_000 } },
      gateway: { auth: { keys: [ALICE, OPS] } },
    });
    gateway = await gatewayProcess(configPath, env);
    browser = await launchChromium();
    // A short window, so the timeline is taller than it and the reader has a place to keep.
    alice = await watchedContext(browser, watch, { width: 1100, height: 420 });
    timeline = await alice.newPage();
    approvals = await alice.newPage();
  }, START_BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("alice's first runs make two sessions; she signs in", async () => {
    for (const [session, input] of [
      [SESSION, "Find me a flight to Lisbon for the trip"],
      [OTHER, "Remember to water the plants"],
    ] as const) {
      const answer = await postResponse(gateway.url, { input, session, token: ALICE.token });
      expect(answer.status).toBe(200);
    }
    await signInAt(timeline, gateway.url, ALICE.token);
  });

  it("an open timeline appends a new run's search as it is written, and the reader's place stays", async () => {
    await timeline.goto(`${gateway.url}/console/session?agent=main&key=${SESSION}`);
    await expect.poll(() => timeline.locator("main").textContent()).toContain("Run completed");
    expect(await timeline.locator("main section").count()).toBe(2); // the session header, run 1
    // The drawn nodes are marked: an append keeps them, a redraw would replace them.
    await timeline.evaluate(`document.querySelector("main section").dataset.mark = "kept"`);
    await timeline.evaluate("window.scrollTo(0, 120)");
    const place = (await timeline.evaluate("window.scrollY")) as number;
    expect(place).toBe(120);
    await approvals.goto(`${gateway.url}/console/approvals`);
    await expect.poll(() => approvals.locator("main").textContent()).toContain("Nothing is waiting.");

    held = postResponse(gateway.url, {
      input: `Record this trip. target=${HOSTILE_TOOL}`,
      session: SESSION,
      token: ALICE.token,
    });
    await expect
      .poll(() => timeline.locator("main section[aria-label='Run 2']").textContent(), {
        timeout: PUSH_BOUND_MS,
      })
      .toContain("Search");
    await timeline.locator("#in-progress").waitFor();
    expect(await timeline.evaluate(`document.querySelector("main section").dataset.mark`)).toBe("kept");
    expect(await timeline.evaluate("window.scrollY")).toBe(place);
  });

  it("the waiting call appears in the approvals page without a reload", async () => {
    const row = approvals.locator("article.approval");
    await row.waitFor({ timeout: PUSH_BOUND_MS });
    expect(await row.textContent()).toContain(SESSION);
    expect(await approvals.locator("main").textContent()).not.toContain("Nothing is waiting.");
    await approvals.screenshot({ path: join(shots, "approvals.png"), fullPage: true });
  });

  it("decided elsewhere (the API, by the ops key): the row goes, the run finishes, the timeline says who decided", async () => {
    const listed = await pollFor("the approval to be listed", async () => {
      const response = await fetch(`${gateway.url}/v1/approvals`, {
        headers: { authorization: `Bearer ${OPS.token}` },
      });
      const body = (await response.json()) as { approvals: Array<{ id: string }> };
      return body.approvals[0];
    });
    const decided = await fetch(`${gateway.url}/v1/approvals/${listed.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${OPS.token}`, "content-type": "application/json" },
      body: JSON.stringify({ decision: "allow", note: "trip approved by ops" }),
    });
    expect(decided.status).toBe(200);
    await expect
      .poll(() => approvals.locator("article.approval").count(), { timeout: PUSH_BOUND_MS })
      .toBe(0);
    await expect
      .poll(() => approvals.locator("main").textContent(), { timeout: PUSH_BOUND_MS })
      .toContain("Nothing is waiting.");
    expect((await held).status).toBe(200);

    const run = timeline.locator("main section[aria-label='Run 2']");
    await expect.poll(() => run.textContent(), { timeout: PUSH_BOUND_MS }).toContain("Run completed");
    const text = (await run.textContent()) ?? "";
    expect(text).toContain(`Approval: ${HOSTILE_TOOL} allowed`);
    expect(text).toContain("decided by key ops");
    expect(text).toContain("trip approved by ops");
    expect(text).toContain(`Call target ${HOSTILE_TOOL}`);
    expect(await timeline.locator("#in-progress").count()).toBe(0);
    expect(await timeline.evaluate(`document.querySelector("main section").dataset.mark`)).toBe("kept");
    expect(await timeline.evaluate("window.scrollY")).toBe(120);
    await timeline.setViewportSize({ width: 1100, height: 900 });
    await run.scrollIntoViewIfNeeded();
    await timeline.screenshot({ path: join(shots, "session.png"), fullPage: true });
  });

  it("the sessions page filters by the last run's status and by text inside the conversation", async () => {
    const page = timeline;
    await page.goto(`${gateway.url}/console/sessions`);
    const links = page.locator("main table a");
    await expect.poll(() => links.allTextContents()).toEqual([OTHER, SESSION]);
    await page.locator("#filter-contains").fill("plants");
    await page.locator("#filter-contains").press("Enter");
    await expect.poll(() => links.allTextContents()).toEqual([OTHER]);
    await page.locator("#filter-contains").fill("LISBON");
    await page.locator("#filter-status").selectOption("completed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => links.allTextContents()).toEqual([SESSION]);
    await page.screenshot({ path: join(shots, "sessions.png"), fullPage: true });
    await page.locator("#filter-status").selectOption("failed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.locator("main").textContent()).toContain("No sessions match.");
    // No owner-key filter for a key that is not an admin.
    expect(await page.locator("#filter-key").count()).toBe(0);
  });

  it("the pages logged no errors", () => {
    expect(consoleErrors).toEqual([]);
  });
});
