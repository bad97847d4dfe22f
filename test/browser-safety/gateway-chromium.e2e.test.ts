import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import { tempDir } from "../operator-safety/operator-safety.test-support.js";
import { type AttackPageServer, startAttackPageServer } from "./attack-page-server.test-support.js";
import {
  type BrowserSafetyGateway,
  CHROMIUM,
  CHROMIUM_ARGS,
  MARKER_PROMPT,
  markerLines,
  startMarkerGateway,
} from "./browser-safety.test-support.js";

/** A DNS name the browser resolves to 127.0.0.1, as a rebinding attacker's name would after the rebind. */
const REBOUND_NAME = "rebind.example";
const BROWSER_ARGS = [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${REBOUND_NAME} 127.0.0.1`];

/** Bound on starting the mock, the gateway and Chromium on a busy machine (a bound against hangs, not a timing goal). */
const START_BOUND_MS = 60_000;

const available = existsSync(CHROMIUM);
if (!available && !process.env.CI) {
  console.warn(
    `skipping the Chromium browser-safety test: ${CHROMIUM} is missing (apt-get install chromium)`,
  );
}

type Attempt = { name: string; outcome: string; status: number; text: string; session: string | null };

describe.skipIf(!available && !process.env.CI)(
  "a real Chromium on pages of other origins cannot make a loopback gateway run a tool",
  () => {
    let root: string;
    let userDataDir: string;
    let mock: MockOpenAI;
    let pages: AttackPageServer;
    let gateway: BrowserSafetyGateway;
    let browser: BrowserContext;
    let markerPath: string;

    beforeAll(async () => {
      if (!available) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
      root = await tempDir("chromium");
      userDataDir = await mkdtemp(join(tmpdir(), "toolsift-chromium-profile-"));
      markerPath = join(root, "marker.jsonl");
      mock = await startMockOpenAI({ port: 0 });
      pages = await startAttackPageServer();
      gateway = await startMarkerGateway({
        root,
        mock,
        markerPath,
        gateway: { cors: { allowOrigins: [`http://localhost:${pages.port}`] } },
      });
      browser = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: false, // --headless is in the args, as the Debian package expects
        args: BROWSER_ARGS,
      });
    }, START_BOUND_MS);

    afterAll(async () => {
      await browser?.close();
      if (gateway) expect(await gateway.cli.stop()).toBe(0);
      await pages?.close();
      await mock?.close();
      if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
      if (root) await rm(root, { recursive: true, force: true });
    });

    async function runAttackPage(origin: string, query = ""): Promise<Attempt[]> {
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/attack?gateway=${encodeURIComponent(gateway.url)}${query}`);
        await page.waitForFunction('document.title === "done"');
        return (await page.evaluate("window.__results")) as Attempt[];
      } finally {
        await page.close();
      }
    }

    async function submitForm(origin: string, enctype: string): Promise<{ page: Page; text: string }> {
      const page = await browser.newPage();
      const query = `gateway=${encodeURIComponent(gateway.url)}&enctype=${encodeURIComponent(enctype)}`;
      const landed = page.waitForURL(`${gateway.url}/v1/responses`);
      await page.goto(`${origin}/form?${query}`);
      await landed;
      return { page, text: (await page.textContent("body")) ?? "" };
    }

    it("page on http://127.0.0.1:<other port> (unlisted origin): fetches are refused with 403", async () => {
      const attempts = await runAttackPage(`http://127.0.0.1:${pages.port}`);
      expect(attempts.map((attempt) => [attempt.name, attempt.outcome])).toEqual([
        ["no-cors text/plain", "opaque"], // sent, answer unreadable (it was a 403)
        ["cors text/plain", "blocked"], // sent, 403 without CORS headers
        ["cors JSON", "blocked"], // the preflight got 403, so the POST was never sent
      ]);
      expect(await markerLines(markerPath)).toEqual([]);
    });

    it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])(
      "page on the unlisted origin: a %s form post is refused with 403",
      async (enctype) => {
        const { page, text } = await submitForm(`http://127.0.0.1:${pages.port}`, enctype);
        await page.close();
        expect(text).toContain('"code":"forbidden_origin"');
        expect(await markerLines(markerPath)).toEqual([]);
      },
    );

    it("page on http://localhost:<port> (listed origin): text/plain is 415, JSON gets a CORS answer", async () => {
      const attempts = await runAttackPage(
        `http://localhost:${pages.port}`,
        "&json=hello%20from%20the%20page",
      );
      const [noCors, corsText, corsJson] = attempts;
      expect(noCors?.outcome).toBe("opaque");
      expect(corsText).toMatchObject({ outcome: "cors", status: 415 });
      expect(corsText?.text).toContain("send Content-Type: application/json");
      expect(corsJson).toMatchObject({ outcome: "cors", status: 200 });
      expect(corsJson?.session).toMatch(/^fp-/u); // a header-less conversation is keyed by its fingerprint
      expect(await markerLines(markerPath)).toEqual([]);
    });

    it("page on the listed origin: a text/plain form post is refused with 415", async () => {
      const { page, text } = await submitForm(`http://localhost:${pages.port}`, "text/plain");
      await page.close();
      expect(text).toContain('"code":"unsupported_media_type"');
      expect(await markerLines(markerPath)).toEqual([]);
    });

    it("a rebound DNS name reaching the gateway is refused with 403, even same-origin", async () => {
      const page = await browser.newPage();
      try {
        const origin = `http://${REBOUND_NAME}:${gateway.port}`;
        const landing = await page.goto(`${origin}/healthz`);
        expect(landing?.status()).toBe(403);
        const body = JSON.stringify({ input: MARKER_PROMPT });
        const answer = (await page.evaluate(
          `fetch("/v1/responses", { method: "POST", headers: { "content-type": "application/json" }, body: ${JSON.stringify(body)} }).then(async (r) => ({ status: r.status, text: await r.text() }))`,
        )) as { status: number; text: string };
        expect(answer.status).toBe(403);
        expect(answer.text).toContain('"code":"forbidden_host"');
      } finally {
        await page.close();
      }
      expect(await markerLines(markerPath)).toEqual([]);
    });

    it("the marker tool never ran, the provider never saw the marker prompt, and the gateway logged each refusal", () => {
      expect(mock.requests().some((request) => request.body.includes("target=write_marker"))).toBe(false);
      const log = gateway.cli.stderr();
      for (const refusal of [
        "refused POST /v1/responses: 403 forbidden_origin",
        "refused OPTIONS /v1/responses: 403 forbidden_origin",
        "refused POST /v1/responses: 415 unsupported_media_type",
        "refused GET /healthz: 403 forbidden_host",
        "refused POST /v1/responses: 403 forbidden_host",
      ]) {
        expect(log).toContain(refusal);
      }
    });
  },
);
