import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { stdioFixture } from "../../src/runtime/mcp-client/mcp.test-support.js";
import {
  type GatewayUnderTest,
  gatewayProcess,
  postResponse,
  tempDir,
  writeConfig,
} from "../operator-safety/operator-safety.test-support.js";
import {
  browserTestsRun,
  hostileMarkup,
  launchChromium,
  newPageWatch,
  screenshotFolder,
  signInAt,
  watchedContext,
} from "./console.test-support.js";

// The Logs and Health pages in a real Chromium, against the built `toolsift gateway` over the mock provider
// with a real MCP server (the SDK fixture): an admin follows the log as another browser signs in, hostile text
// a stranger puts in a logged path shows as text, the filter narrows the lines, pause holds new lines back; a
// key without admin gets no Logs link and a 403; the Health page shows the MCP server and the doctor's checks.

const OPS = { id: "ops", token: "tsk-console-logs-ops-5e4d3c2b1a09f8e7d6c5", scopes: ["admin"] };
const ALICE = {
  id: "alice",
  token: "tsk-console-logs-alice-0a9b8c7d6e5f4a3b2c1d",
  scopes: ["runs", "sessions:read", "approvals"],
};
/** The MCP server of the config, as the Health page names it. */
const MCP_SERVER = "fixture";
/** Bound on a line reaching the page (a bound against hangs, not a timing goal). */
const SHOW_BOUND_MS = 15_000;
/** Bound on starting the mock, the gateway and Chromium on a busy machine (against hangs, not a timing goal). */
const START_BOUND_MS = 60_000;

describe.skipIf(!browserTestsRun("console logs"))("the console's Logs and Health pages in Chromium", () => {
  let root: string;
  let shots: string;
  let mock: MockOpenAI;
  let gateway: GatewayUnderTest;
  let browser: Browser;
  let ops: BrowserContext;
  let page: Page;
  const watch = newPageWatch();
  const { dialogs, requested } = watch;

  beforeAll(async () => {
    root = await tempDir("console-logs");
    shots = await screenshotFolder(root);
    mock = await startMockOpenAI({ port: 0 });
    const { configPath, env } = await writeConfig(root, join(root, "state"), {
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      mcp: { servers: { [MCP_SERVER]: stdioFixture({ prefix: "fx", count: 3 }) } },
      gateway: { auth: { keys: [OPS, ALICE] } },
    });
    gateway = await gatewayProcess(configPath, env);
    browser = await launchChromium();
    ops = await watchedContext(browser, watch);
    page = await ops.newPage();
  }, START_BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const signIn = (on: Page, token: string) => signInAt(on, gateway.url, token);

  const shownLines = (on: Page) => on.locator("#log-lines li.log-line .log-text").allTextContents();

  it("an admin's Logs page shows the log, then a line written after it opened (another browser signs in)", async () => {
    await signIn(page, OPS.token);
    expect(await page.locator("#nav-logs").isVisible()).toBe(true);
    await page.locator("#nav-logs").click();
    await page.waitForURL(`${gateway.url}/console/logs`);
    await expect.poll(() => shownLines(page)).toContain("console: key ops signed in");
    await expect.poll(() => page.locator("#logs-status").textContent()).toContain("Following new lines");
    const other = await browser.newContext();
    await signIn(await other.newPage(), ALICE.token);
    await other.close();
    await expect
      .poll(() => shownLines(page), { timeout: SHOW_BOUND_MS })
      .toContain("console: key alice signed in");
    // Still the page that was opened: no reload happened.
    expect(page.url()).toBe(`${gateway.url}/console/logs`);
  });

  it("hostile markup a stranger puts in a logged path shows literally and runs nothing", async () => {
    const markup = hostileMarkup("log");
    // The URL parser escapes only spaces, quotes and angle brackets in a path; the gateway logs it decoded.
    const refused = await fetch(`${gateway.url}/v1/${markup}`);
    expect(refused.status).toBe(401);
    await expect
      .poll(async () => (await shownLines(page)).some((text) => text.includes(markup)), {
        timeout: SHOW_BOUND_MS,
      })
      .toBe(true);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    expect(await page.locator("main img, main script").count()).toBe(0);
    await page.screenshot({ path: join(shots, "logs.png") });
  });

  it("the filter narrows the lines, and the tail follows with the filter", async () => {
    await page.locator("#logs-filter").fill("ALICE");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => shownLines(page))
      .toEqual([
        "gateway auth: every route but /healthz requires one of the keys ops, alice (gateway.auth)",
        "console: key alice signed in",
      ]);
    await fetch(`${gateway.url}/v1/models/alice-after-filter`);
    await fetch(`${gateway.url}/v1/models/bob-after-filter`);
    await expect
      .poll(
        async () => (await shownLines(page)).some((text) => text.includes("/v1/models/alice-after-filter")),
        {
          timeout: SHOW_BOUND_MS,
        },
      )
      .toBe(true);
    const lines = await shownLines(page);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((text) => text.toLowerCase().includes("alice"))).toBe(true);
    expect(gateway.log()).toContain("/v1/models/bob-after-filter");
  });

  it("pause holds new lines back; resume shows them", async () => {
    await page.locator("#logs-filter").fill("pause-probe");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#logs-status").textContent()).toContain("Following new lines");
    await page.locator("#logs-pause").click();
    expect(await page.locator("#logs-pause").getAttribute("aria-pressed")).toBe("true");
    await fetch(`${gateway.url}/v1/models/pause-probe`);
    // The gateway has written the line, and the paused page does not show it.
    await expect.poll(() => gateway.log()).toContain("/v1/models/pause-probe");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await shownLines(page)).toEqual([]);
    await page.locator("#logs-pause").click();
    await expect
      .poll(async () => (await shownLines(page)).some((text) => text.includes("/v1/models/pause-probe")), {
        timeout: SHOW_BOUND_MS,
      })
      .toBe(true);
  });

  it("a key without admin has no Logs link, and the Logs page and API refuse it (403)", async () => {
    const context = await browser.newContext();
    const alicePage = await context.newPage();
    await signIn(alicePage, ALICE.token);
    expect(await alicePage.locator("#nav-health").isVisible()).toBe(true);
    expect(await alicePage.locator("#nav-logs").isVisible()).toBe(false);
    await alicePage.goto(`${gateway.url}/console/logs`);
    await expect.poll(() => alicePage.locator("main [role=alert]").textContent()).toContain("admin");
    const csrf = (await alicePage.evaluate(
      `fetch("/console/api/session", { headers: { "x-console-csrf": "x" } }).then((r) => r.json()).then((b) => b.csrf)`,
    )) as string;
    for (const path of ["/console/api/logs", "/console/api/logs/stream"]) {
      const answer = (await alicePage.evaluate(
        `fetch(${JSON.stringify(path)}, { headers: { "x-console-csrf": ${JSON.stringify(csrf)} } }).then(async (r) => ({ status: r.status, body: await r.json() }))`,
      )) as { status: number; body: { error: { code: string } } };
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code, path).toBe("insufficient_scope");
    }
    // The Health page: statuses, without the checks' words.
    await alicePage.goto(`${gateway.url}/console/health`);
    await alicePage.locator("#health-checks li.check").first().waitFor();
    expect(await alicePage.locator("#health-checks").textContent()).toContain("an admin key sees");
    expect(await alicePage.locator("#health-checks").textContent()).not.toContain("is writable");
    await context.close();
  });

  it("the Health page shows the MCP server (status, tools) and the doctor's checks to the admin", async () => {
    await page.goto(`${gateway.url}/console/health`);
    const row = page.locator("#health-servers tbody tr", { hasText: MCP_SERVER });
    // The server starts once the gateway listens: Refresh until it is ready.
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh" }).click();
          return (await row.locator("td").allTextContents()).slice(0, 2);
        },
        { timeout: SHOW_BOUND_MS },
      )
      .toEqual([MCP_SERVER, "ready"]);
    expect(Number((await row.locator("td").nth(2).textContent()) ?? "0")).toBeGreaterThan(0);
    const checks = (await page.locator("#health-checks").textContent()) ?? "";
    for (const name of ["state-dir", "providers", "mcp-servers", "policy", "gateway-auth"])
      expect(checks).toContain(name);
    expect(checks).toContain("is writable");
    expect(checks).toContain(`${MCP_SERVER}:`);
    expect(await page.locator("#health [role=status]").textContent()).toContain("Healthy");
    await page.screenshot({ path: join(shots, "health.png"), fullPage: true });
    for (const token of [OPS.token, ALICE.token]) {
      expect(requested.filter((url) => url.includes(token))).toEqual([]);
      expect(gateway.log()).not.toContain(token);
    }
  });

  it("the Health page reads itself again every 10 s, keeping focus, place and unchanged parts, and says when", async () => {
    const health = await ops.newPage();
    try {
      await health.clock.install();
      await health.setViewportSize({ width: 900, height: 300 });
      const reads: string[] = [];
      health.on("request", (request) => {
        if (new URL(request.url()).pathname === "/console/api/health") reads.push(request.url());
      });
      await health.goto(`${gateway.url}/console/health`);
      await health.locator("#health-checks li.check").first().waitFor();
      const provider = health.locator("#health tbody tr", { hasText: "mock" }).locator("td").nth(1);
      // No run has asked the provider yet.
      expect(await provider.textContent()).not.toBe("reachable");
      const readAt = health.locator("#health-read-at");
      const firstRead = await readAt.textContent();
      expect(firstRead).toContain("Last read");
      // The reader's place: focus on Refresh, scrolled down, a mark on a part that will not change.
      await health.getByRole("button", { name: "Refresh" }).focus();
      await health.evaluate("window.scrollTo(0, document.body.scrollHeight)");
      const scrolled = await health.evaluate("window.scrollY");
      expect(scrolled).toBeGreaterThan(0);
      await health.evaluate("document.querySelector('#health-checks li.check').dataset.kept = 'yes'");

      const run = await postResponse(gateway.url, {
        input: "hello",
        session: "health-refresh",
        token: ALICE.token,
      });
      expect(run.status).toBe(200);
      const before = reads.length;
      await health.clock.runFor(10_000);
      await expect.poll(() => provider.textContent(), { timeout: SHOW_BOUND_MS }).toBe("reachable");
      expect(reads.length).toBeGreaterThan(before);
      expect(await readAt.textContent()).not.toBe(firstRead);
      expect(await health.evaluate("document.activeElement?.textContent")).toBe("Refresh");
      expect(await health.evaluate("window.scrollY")).toBe(scrolled);
      expect(await health.evaluate("document.querySelector('#health-checks li.check').dataset.kept")).toBe(
        "yes",
      );
      expect(dialogs).toEqual([]);
    } finally {
      await health.close();
    }
  });
});
