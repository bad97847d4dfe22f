import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { markerLines } from "../browser-safety/browser-safety.test-support.js";
import {
  type GatewayUnderTest,
  gatewayProcess,
  pollFor,
  tempDir,
  writeConfig,
} from "../operator-safety/operator-safety.test-support.js";
import {
  browserTestsRun,
  HOSTILE_TOOL,
  hostileMarkup,
  launchChromium,
  newPageWatch,
  screenshotFolder,
  signInAt,
  watchedContext,
  writeHostilePlugin,
} from "./console.test-support.js";

// The console's chat page in a real Chromium, against the built `toolsift gateway` over the mock provider:
// a key chats with the keyboard only and watches the search, its candidates and the call appear while the
// run streams; a call that needs approval is allowed inline and the run finishes (the tool ran); Stop on a
// slow tool cancels the run (the session log says CANCELLED, the tool's effect never happened); hostile
// text from the tool shows literally; a key without `runs` gets no Chat link and a refusal.

const ALICE = {
  id: "alice",
  token: "tsk-chat-alice-2b7e9a0d3e5f6a7b8c9d4f1c",
  scopes: ["runs", "sessions:read", "approvals"],
};
/** A key that may read sessions but not run agents. */
const READER = {
  id: "reader",
  token: "tsk-chat-reader-93a4b5ca1b2c3d4e5f607182",
  scopes: ["sessions:read"],
};
const TOKENS = [ALICE.token, READER.token];
/** The plugin tool that takes its time, and honours its call's signal. */
const SLOW_TOOL = "slow_marker";
/** How long the slow tool takes when nothing stops it: far longer than the test waits for anything. */
const SLOW_TOOL_MS = 60_000;

/** Bound on starting the mock, the gateway and Chromium on a busy machine (against hangs, not a timing goal). */
const START_BOUND_MS = 60_000;
/** Bound on a streamed frame showing in the page (against hangs, not a timing goal). */
const SHOW_BOUND_MS = 15_000;

/**
 * Writes a plugin whose tool notes in `startedPath` that it started, then waits `SLOW_TOOL_MS` (or until its
 * call's signal aborts) and only then, when not aborted, writes `donePath`: the effect a Stop must prevent.
 */
async function writeSlowPlugin(root: string, startedPath: string, donePath: string): Promise<string> {
  const dir = join(root, "slow-plugin");
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "toolsift.plugin.json"),
    JSON.stringify({ id: "slow", name: "slow", version: "1.0.0", tools: [SLOW_TOOL] }),
  );
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await writeFile(
    join(dir, "index.js"),
    `import { appendFileSync } from "node:fs";
export function register(api) {
  api.registerTool({
    name: ${JSON.stringify(SLOW_TOOL)},
    description: "Write a slow marker after a long wait.",
    parameters: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
    async execute(args, context) {
      appendFileSync(${JSON.stringify(startedPath)}, "started\\n");
      const signal = context?.signal;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, ${SLOW_TOOL_MS});
        signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
      });
      if (signal?.aborted) return { content: [{ type: "text", text: "cut" }], isError: true };
      appendFileSync(${JSON.stringify(donePath)}, JSON.stringify(args) + "\\n");
      return { content: [{ type: "text", text: "slow marker written" }] };
    },
  });
}
`,
  );
  return dir;
}

describe.skipIf(!browserTestsRun("console chat"))("the console's chat page in a real Chromium", () => {
  let root: string;
  let shots: string;
  let markerPath: string;
  let slowStarted: string;
  let slowDone: string;
  let mock: MockOpenAI;
  let gateway: GatewayUnderTest;
  let browser: Browser;
  let alice: BrowserContext;
  let page: Page;
  const watch = newPageWatch();
  const { requested, dialogs, consoleErrors } = watch;

  beforeAll(async () => {
    root = await tempDir("console-chat");
    shots = await screenshotFolder(root);
    markerPath = join(root, "marker.jsonl");
    slowStarted = join(root, "slow-started");
    slowDone = join(root, "slow-done");
    mock = await startMockOpenAI({ port: 0 });
    const hostile = await writeHostilePlugin(root, markerPath);
    const slow = await writeSlowPlugin(root, slowStarted, slowDone);
    const { configPath, env } = await writeConfig(root, join(root, "state"), {
      models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [hostile, slow] } },
      tools: { approval: { require: [HOSTILE_TOOL], mode: "ask", timeoutMs: 120_000 } },
      gateway: { auth: { keys: [ALICE, READER] } },
    });
    gateway = await gatewayProcess(configPath, env);
    browser = await launchChromium();
    alice = await watchedContext(browser, watch, { width: 1200, height: 900 });
    page = await alice.newPage();
  }, START_BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const signIn = (on: Page, token: string) => signInAt(on, gateway.url, token);

  /** Nothing the page showed ran as script: no dialog, no `window.__xss`, no `<img>` or `<script>` in it. */
  async function expectNoScriptRan(on: Page): Promise<void> {
    expect(dialogs).toEqual([]);
    expect(await on.evaluate("window.__xss")).toBeUndefined();
    expect(await on.locator("main img, main script").count()).toBe(0);
  }

  /** The session log of alice's session `name`, as the API answers it. */
  async function sessionEvents(name: string): Promise<Array<Record<string, unknown>>> {
    const response = await fetch(`${gateway.url}/v1/sessions/${name}?agent=main`, {
      headers: { authorization: `Bearer ${ALICE.token}` },
    });
    if (response.status !== 200) return [];
    return ((await response.json()) as { events: Array<Record<string, unknown>> }).events;
  }

  it("a key without runs gets no Chat link, and its chat is refused with insufficient_scope", async () => {
    // Its refused requests log errors of their own: only its URLs and dialogs join the watch.
    const reader = await watchedContext(browser, { ...watch, consoleErrors: [] });
    const readerPage = await reader.newPage();
    await signIn(readerPage, READER.token);
    expect(await readerPage.locator("#nav-chat").isVisible()).toBe(false);
    await readerPage.goto(`${gateway.url}/console/chat`);
    await readerPage.locator("#chat-input").fill("hello");
    await readerPage.locator("#chat-send").click();
    await expect
      .poll(() => readerPage.locator("main [role=alert]").textContent())
      .toContain('lacks the scope "runs"');
    await reader.close();
  });

  it("keyboard only: alice opens the chat, Tab reaches every control, and Enter on Send starts the run", async () => {
    await signIn(page, ALICE.token);
    expect(await page.locator("#nav-chat").isVisible()).toBe(true);
    await page.locator("#nav-chat").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${gateway.url}/console/chat`);
    await page.locator("#chat-input").waitFor();
    // Focus starts in the message field.
    expect(await page.evaluate("document.activeElement.id")).toBe("chat-input");
    const seen: string[] = [];
    for (let step = 0; step < 30; step += 1) {
      await page.keyboard.press("Tab");
      const id = (await page.evaluate("document.activeElement?.id ?? ''")) as string;
      if (id === "chat-input") break;
      seen.push(id);
    }
    // Send is reachable; Stop is disabled (skipped) until a run is going; the form's other controls follow.
    for (const control of ["chat-send", "nav-chat", "chat-agent", "chat-session", "chat-new"])
      expect(seen).toContain(control);
    expect(seen).not.toContain("chat-stop");
    await page.keyboard.type(`Please record this visit. target=${HOSTILE_TOOL}`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("chat-send");
    await page.keyboard.press("Enter");
    // Send is disabled while the run goes; the focus is back in the message field.
    await expect.poll(() => page.evaluate("document.activeElement.id")).toBe("chat-input");
  });

  it("the search, its candidates and the call appear while the run streams; the approval waits inline", async () => {
    const log = page.locator("#chat-log");
    const search = log.locator("article.event.search");
    await search.waitFor({ timeout: SHOW_BOUND_MS });
    expect(await search.textContent()).toContain("Query:");
    // The candidates the model saw, with the tool's hostile description as text.
    await search.locator("ol.candidates li").first().waitFor({ timeout: SHOW_BOUND_MS });
    expect(await search.locator("ol.candidates").textContent()).toContain(hostileMarkup("description"));
    const approval = log.locator("article.event.approval");
    await approval.waitFor({ timeout: SHOW_BOUND_MS });
    // Still streaming: the run waits for the operator, Stop is on, the tool has not run.
    expect(await page.locator("#chat-status").textContent()).toBe("Running…");
    expect(await page.locator("#chat-stop").isEnabled()).toBe(true);
    expect(await log.textContent()).toContain(`Call target native:hostile:${HOSTILE_TOOL}`);
    expect(await approval.textContent()).toContain(`Waiting for approval: ${HOSTILE_TOOL}`);
    expect(await approval.textContent()).toContain("note");
    expect(await markerLines(markerPath)).toEqual([]);
    await expectNoScriptRan(page);
  });

  it("Allow, by keyboard, decides the approval inline; the run finishes and the tool ran; its hostile output is text", async () => {
    const approval = page.locator("#chat-log article.event.approval");
    await approval.getByRole("button", { name: "Allow" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => approval.locator("[role=status]").textContent()).toContain("Allowed.");
    await expect
      .poll(() => page.locator("#chat-status").textContent(), { timeout: SHOW_BOUND_MS })
      .toBe("Run completed.");
    expect(await markerLines(markerPath)).toHaveLength(1);
    const text = (await page.locator("#chat-log").textContent()) ?? "";
    expect(text).toContain(hostileMarkup("output"));
    expect(text).toContain("Run completed");
    expect(await approval.getByRole("button", { name: "Allow" }).isDisabled()).toBe(true);
    expect(await page.evaluate("document.activeElement.id")).toBe("chat-input");
    await expectNoScriptRan(page);
    const session = await page.locator("#chat-session").inputValue();
    expect(session).toMatch(/^chat-/u);
    const events = await sessionEvents(session);
    expect(events.at(-1)).toMatchObject({ type: "run-summary", status: "completed" });
    await page.screenshot({ path: join(shots, "chat.png"), fullPage: true });
  });

  it("the chat's session is on the sessions page; its timeline continues in the chat", async () => {
    const session = await page.locator("#chat-session").inputValue();
    await page.goto(`${gateway.url}/console/sessions`);
    await page.getByRole("link", { name: session }).click();
    await page.waitForURL(/\/console\/session\?/u);
    await page.locator("#continue-chat").click();
    await page.waitForURL(/\/console\/chat\?/u);
    expect(await page.locator("#chat-session").inputValue()).toBe(session);
    await page.locator("#chat-input").fill("thanks");
    await page.keyboard.press("Control+Enter");
    await expect
      .poll(() => page.locator("#chat-status").textContent(), { timeout: SHOW_BOUND_MS })
      .toBe("Run completed.");
    expect(await page.locator("#chat-log").textContent()).toContain("mock: thanks");
    const summaries = (await sessionEvents(session)).filter((event) => event.type === "run-summary");
    expect(summaries).toHaveLength(2);
  });

  it("Stop on a slow tool cancels the run: the log says CANCELLED and the tool's effect never happened", async () => {
    await page.locator("#chat-new").click();
    expect(await page.locator("#chat-session").inputValue()).toBe("");
    await page.locator("#chat-input").fill(`Take your time. target=${SLOW_TOOL}`);
    await page.locator("#chat-send").click();
    const log = page.locator("#chat-log");
    await expect
      .poll(() => log.textContent(), { timeout: SHOW_BOUND_MS })
      .toContain(`Call target native:slow:${SLOW_TOOL}`);
    await pollFor("the slow tool to start", async () => (existsSync(slowStarted) ? true : undefined));
    const session = await page.locator("#chat-session").inputValue();
    expect(session).toMatch(/^chat-/u);
    // By keyboard: from the message field, Tab skips the disabled Send and reaches Stop.
    await page.locator("#chat-input").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("chat-stop");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator("#chat-status").textContent())
      .toBe("Stopped: the run was cancelled.");
    expect(await page.locator("#chat-stop").isDisabled()).toBe(true);
    const summary = await pollFor("the cancelled run's summary", async () => {
      const last = (await sessionEvents(session)).at(-1);
      return last?.type === "run-summary" ? last : undefined;
    });
    expect(summary.error).toMatch(/^CANCELLED: The client disconnected/u);
    expect(existsSync(slowDone)).toBe(false);
    expect(gateway.log()).not.toContain("internal error");
  });

  it("no token was ever in a URL or the log; nothing was fetched from elsewhere; no CSP errors", async () => {
    for (const token of TOKENS) {
      expect(requested.filter((url) => url.includes(token))).toEqual([]);
      expect(gateway.log()).not.toContain(token);
    }
    expect(requested.filter((url) => !url.startsWith(gateway.url))).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy/u.test(text))).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
