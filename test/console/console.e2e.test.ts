import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { markerLines } from "../browser-safety/browser-safety.test-support.js";
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
  type ForeignPages,
  HOSTILE_TOOL,
  hostileMarkup,
  launchChromium,
  newPageWatch,
  screenshotFolder,
  startForeignPages,
  watchedContext,
  writeHostilePlugin,
} from "./console.test-support.js";

// The operator console in a real Chromium, against the built `toolsift gateway` over the mock provider: a key
// signs in, reads a session a run made, approves a call a run waits on and sees the run finish; another key
// sees none of it; hostile text from tools and users shows as text; the keyboard reaches every control; the
// CSRF and origin checks refuse what another page sends; no token ever appears in a URL.

const ALICE = {
  id: "alice",
  token: "tsk-console-alice-4f1c2b7e9a0d3e5f6a7b8c9d",
  scopes: ["runs", "sessions:read", "approvals"],
};
const BOB = {
  id: "bob",
  token: "tsk-console-bob-8e7d6c5b4a3928171605f4e3",
  scopes: ["runs", "sessions:read", "approvals"],
};
/** A key that may read sessions but not decide approvals. */
const READER = {
  id: "reader",
  token: "tsk-console-reader-a1b2c3d4e5f60718293a4b5c",
  scopes: ["sessions:read"],
};
const TOKENS = [ALICE.token, BOB.token, READER.token];
/** The session alice's hostile-text run writes, and the one whose call waits for her approval. */
const XSS_SESSION = "alice-xss";
const APPROVAL_SESSION = "alice-approve";
const USER_TEXT = `hello ${hostileMarkup("input")}`;

/** Bound on a followed timeline showing a new event (it is read again every 2 s; a bound against hangs). */
const FOLLOW_BOUND_MS = 15_000;
/** Bound on starting the mock, the gateway and Chromium on a busy machine (against hangs, not a timing goal). */
const START_BOUND_MS = 60_000;

describe.skipIf(!browserTestsRun("console"))("the operator console in a real Chromium", () => {
  let root: string;
  let shots: string;
  let markerPath: string;
  let mock: MockOpenAI;
  let gateway: GatewayUnderTest;
  let foreign: ForeignPages;
  let browser: Browser;
  let alice: BrowserContext;
  let bob: BrowserContext;
  let page: Page;
  let held: Promise<GatewayAnswer>;
  const watch = newPageWatch();
  const { requested, dialogs, consoleErrors } = watch;

  beforeAll(async () => {
    root = await tempDir("console");
    shots = await screenshotFolder(root);
    markerPath = join(root, "marker.jsonl");
    mock = await startMockOpenAI({ port: 0 });
    foreign = await startForeignPages();
    const plugin = await writeHostilePlugin(root, markerPath);
    const { configPath, env } = await writeConfig(root, join(root, "state"), {
      models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [plugin] } },
      tools: { approval: { require: [HOSTILE_TOOL], mode: "ask", timeoutMs: 120_000 } },
      gateway: { auth: { keys: [ALICE, BOB, READER] } },
    });
    gateway = await gatewayProcess(configPath, env);
    browser = await launchChromium();
    alice = await watchedContext(browser, watch);
    bob = await watchedContext(browser, watch);
    page = await alice.newPage();
  }, START_BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await foreign?.close();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** Nothing a page showed ran as script: no dialog, no `window.__xss`, no `<img>` or `<script>` in the content. */
  async function expectNoScriptRan(on: Page): Promise<void> {
    expect(dialogs).toEqual([]);
    expect(await on.evaluate("window.__xss")).toBeUndefined();
    expect(await on.locator("main img, main script").count()).toBe(0);
  }

  /** The labels of the controls Tab reaches from the top of the page, in order, one full round. */
  async function tabOrder(on: Page, ready: string): Promise<string[]> {
    await on.reload();
    await on.locator(ready).first().waitFor();
    const seen: string[] = [];
    for (let step = 0; step < 60; step += 1) {
      await on.keyboard.press("Tab");
      const label = (await on.evaluate(
        `(() => { const e = document.activeElement; if (!e || e === document.body) return ""; return e.tagName.toLowerCase() + ":" + (e.id || e.textContent.trim().slice(0, 40)); })()`,
      )) as string;
      if (label === "" || seen.includes(label)) break;
      seen.push(label);
    }
    return seen;
  }

  it("runs through the gateway make alice's sessions; one waits for the approval of a plugin call", async () => {
    const echoed = await postResponse(gateway.url, {
      input: USER_TEXT,
      session: XSS_SESSION,
      token: ALICE.token,
    });
    expect(echoed.status).toBe(200);
    held = postResponse(gateway.url, {
      input: `Please record this visit. target=${HOSTILE_TOOL}`,
      session: APPROVAL_SESSION,
      token: ALICE.token,
    });
    await pollFor("the plugin call to wait for approval", async () => {
      const listed = await fetch(`${gateway.url}/v1/approvals`, {
        headers: { authorization: `Bearer ${ALICE.token}` },
      });
      const body = (await listed.json()) as { approvals: unknown[] };
      return body.approvals.length > 0 ? true : undefined;
    });
    expect(await markerLines(markerPath)).toEqual([]);
  });

  it("alice signs in with the keyboard only; the page carries the strict CSP; the token stays out of URLs", async () => {
    const landing = await page.goto(`${gateway.url}/console`);
    expect(landing?.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(landing?.headers()["x-content-type-options"]).toBe("nosniff");
    expect(landing?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.waitForURL(`${gateway.url}/console/login`);
    await page.locator("#token").waitFor();
    await page.screenshot({ path: join(shots, "login.png") });
    // Focus starts in the token field: type, then Enter submits.
    await page.keyboard.type(ALICE.token);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${gateway.url}/console/sessions`);
    await expect.poll(() => page.locator("#who").textContent()).toContain("key alice");
    const cookies = await alice.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/console" });
    expect(cookies[0]?.value).not.toContain(ALICE.token);
    expect(page.url()).not.toContain(ALICE.token);
  });

  it("the sessions page lists alice's sessions, newest first, and filters by text", async () => {
    const links = page.locator("main table a");
    await expect.poll(() => links.allTextContents()).toEqual([APPROVAL_SESSION, XSS_SESSION]);
    await page.screenshot({ path: join(shots, "sessions.png"), fullPage: true });
    await page.locator("#filter-text").fill("xss");
    await page.keyboard.press("Enter");
    await expect.poll(() => links.allTextContents()).toEqual([XSS_SESSION]);
  });

  it("keyboard only: Tab reaches every control of the sessions page, Enter opens a session's timeline", async () => {
    const order = await tabOrder(page, "main table a");
    for (const control of [
      "a:Skip to content",
      "a:nav-sessions",
      "a:nav-approvals",
      "button:logout",
      "select:filter-agent",
      "input:filter-text",
      "button:Filter",
      `a:${XSS_SESSION}`,
    ]) {
      expect(order).toContain(control);
    }
    await page.getByRole("link", { name: XSS_SESSION }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/console\/session\?/u);
    expect(new URL(page.url()).searchParams.get("key")).toBe(XSS_SESSION);
  });

  it("the timeline shows hostile user text and model output literally, and nothing runs", async () => {
    await expect.poll(() => page.locator("main").textContent()).toContain("Run completed");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("User input");
    expect(text).toContain("Model request");
    expect(text).toContain(hostileMarkup("input")); // shown as the characters it is made of
    await expectNoScriptRan(page);
    await page.screenshot({ path: join(shots, "timeline.png"), fullPage: true });
  });

  it("bob sees none of alice's sessions or approvals, and cannot open her timeline", async () => {
    const bobPage = await bob.newPage();
    await bobPage.goto(`${gateway.url}/console/login`);
    await bobPage.locator("#token").fill(BOB.token);
    await bobPage.keyboard.press("Enter");
    await bobPage.waitForURL(`${gateway.url}/console/sessions`);
    await expect.poll(() => bobPage.locator("main").textContent()).toContain("No sessions match.");
    await bobPage.goto(`${gateway.url}/console/approvals`);
    await expect.poll(() => bobPage.locator("main").textContent()).toContain("Nothing is waiting.");
    await bobPage.goto(`${gateway.url}/console/session?agent=main&key=${XSS_SESSION}`);
    await expect.poll(() => bobPage.locator("main [role=alert]").textContent()).toContain("has no session");
    expect(await bobPage.locator("main").textContent()).not.toContain("hello");
    await bobPage.close();
  });

  it("the gateway logs where the console is; a key without the approvals scope gets no Approvals link", async () => {
    expect(gateway.log()).toContain(`gateway console: ${gateway.url}/console (sign in with a key's token)`);
    // Its refused requests log errors of their own: only its URLs and dialogs join the watch.
    const reader = await watchedContext(browser, { ...watch, consoleErrors: [] });
    const readerPage = await reader.newPage();
    await readerPage.goto(`${gateway.url}/console/login`);
    await readerPage.locator("#token").fill(READER.token);
    await readerPage.keyboard.press("Enter");
    await readerPage.waitForURL(`${gateway.url}/console/sessions`);
    await expect.poll(() => readerPage.locator("#who").textContent()).toContain("key reader");
    expect(await readerPage.locator("#nav-sessions").isVisible()).toBe(true);
    expect(await readerPage.locator("#nav-approvals").isVisible()).toBe(false);
    await readerPage.goto(`${gateway.url}/console/approvals`);
    await expect.poll(() => readerPage.locator("main [role=alert]").textContent()).toContain("approvals");
    await reader.close();
  });

  it("the tools page shows the agent's effective tools; the keyboard reaches its controls", async () => {
    await page.goto(`${gateway.url}/console/tools`);
    const row = page.locator("#tools tbody tr", { hasText: HOSTILE_TOOL });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells).toEqual([
      HOSTILE_TOOL,
      `native:hostile:${HOSTILE_TOOL}`,
      "native",
      "hostile",
      "behind Tool Search",
    ]);
    expect(await page.locator("#tools").textContent()).toContain("Declared: tool_search");
    await page.screenshot({ path: join(shots, "tools.png"), fullPage: true });
    const order = await tabOrder(page, "#tools tbody tr");
    for (const control of ["a:nav-tools", "select:tools-agent", "button:Show"])
      expect(order).toContain(control);
  });

  it("the health page shows storage and each provider as /healthz does", async () => {
    await page.goto(`${gateway.url}/console/health`);
    await page.locator("#health table").waitFor();
    expect(await page.locator("#health [role=status]").textContent()).toContain("Healthy");
    expect(await page.locator("#health tbody tr").allTextContents()).toEqual(["mockreachable"]);
    await page.screenshot({ path: join(shots, "health.png"), fullPage: true });
  });

  it("POSTs without the CSRF token, or from another origin, are refused; alice stays signed in", async () => {
    const noCsrf = (await page.evaluate(
      `fetch("/console/api/logout", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then(async (r) => ({ status: r.status, text: await r.text() }))`,
    )) as { status: number; text: string };
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.text).toContain("csrf_token_invalid");

    const other = await alice.newPage();
    await other.goto(foreign.origin);
    const target = `${gateway.url}/console/api/logout`;
    // A "simple" request (no preflight): sent with alice's cookie (same site), refused for its Origin.
    const simple = (await other.evaluate(
      `fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: "{}" }).then((r) => r.type, (e) => String(e))`,
    )) as string;
    expect(simple).toBe("opaque");
    // A JSON request with the CSRF header needs a preflight, which the gateway refuses.
    const preflighted = (await other.evaluate(
      `fetch(${JSON.stringify(target)}, { method: "POST", credentials: "include", headers: { "content-type": "application/json", "x-console-csrf": "guess" }, body: "{}" }).then((r) => "answered " + r.status, (e) => "blocked")`,
    )) as string;
    expect(preflighted).toBe("blocked");
    await other.close();
    await expect
      .poll(() => gateway.log())
      .toContain("refused POST /console/api/logout: 403 forbidden_origin");
    expect(gateway.log()).toContain("refused OPTIONS /console/api/logout: 403 forbidden_origin");
    expect(gateway.log()).not.toContain("console: key alice signed out");
    await page.goto(`${gateway.url}/console/sessions`);
    await expect.poll(() => page.locator("main table a").count()).toBe(2);
  });

  it("alice approves the waiting call with a note (keyboard only); the run finishes, and its open timeline follows", async () => {
    const following = await alice.newPage();
    await following.goto(`${gateway.url}/console/session?agent=main&key=${APPROVAL_SESSION}`);
    await following.locator("#in-progress").waitFor();
    expect(await following.locator("main").textContent()).not.toContain("Run completed");
    await page.goto(`${gateway.url}/console/approvals`);
    const approval = page.locator("article.approval");
    await approval.waitFor();
    const shown = (await approval.textContent()) ?? "";
    expect(shown).toContain(HOSTILE_TOOL);
    expect(shown).toContain(APPROVAL_SESSION);
    await page.screenshot({ path: join(shots, "approvals.png"), fullPage: true });
    const order = await tabOrder(page, "article.approval");
    expect(order.filter((label) => /^(input:note-|button:Allow|button:Deny)/u.test(label))).toHaveLength(3);
    await page.locator("article.approval input").focus();
    await page.keyboard.type("checked in the console");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Allow");
    await page.keyboard.press("Enter");
    await expect.poll(() => approval.locator("[role=status]").textContent()).toContain("Allowed.");
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(await markerLines(markerPath)).toHaveLength(1);
    expect(gateway.log()).toContain("checked in the console");
    // The timeline opened before the decision shows the finished run without a reload.
    await expect
      .poll(() => following.locator("main").textContent(), { timeout: FOLLOW_BOUND_MS })
      .toContain("Run completed");
    expect(await following.locator("#in-progress").count()).toBe(0);
    await following.close();
  });

  it("the approved run's timeline shows the call, its hostile output and description as text, and nothing runs", async () => {
    await page.goto(`${gateway.url}/console/session?agent=main&key=${APPROVAL_SESSION}`);
    await expect.poll(() => page.locator("main").textContent()).toContain("Run completed");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain(HOSTILE_TOOL);
    expect(text).toContain(hostileMarkup("output"));
    // The mock searched first: the candidates show the tool's hostile description.
    expect(await page.locator("ol.candidates li").first().textContent()).toContain(
      hostileMarkup("description"),
    );
    expect(text).toContain("Run 1");
    await expectNoScriptRan(page);
    await page.screenshot({ path: join(shots, "timeline-call.png"), fullPage: true });
  });

  it("signing out ends the session; no token was ever in a URL; the page logged no errors", async () => {
    await page.goto(`${gateway.url}/console/sessions`);
    await page.locator("#logout").click();
    await page.waitForURL(`${gateway.url}/console/login`);
    await page.goto(`${gateway.url}/console/sessions`);
    await page.waitForURL(`${gateway.url}/console/login`);
    expect(gateway.log()).toContain("console: key alice signed out");
    for (const token of TOKENS) {
      expect(requested.filter((url) => url.includes(token))).toEqual([]);
      expect(gateway.log()).not.toContain(token);
    }
    expect(requested.some((url) => url.includes("/console/api/login"))).toBe(true);
    expect(
      requested.filter((url) => !url.startsWith(gateway.url) && !url.startsWith(foreign.origin)),
    ).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy/u.test(text))).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
