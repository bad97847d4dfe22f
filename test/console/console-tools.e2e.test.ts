import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../src/dev/mock-openai/index.js";
import {
  type TestPluginSpec,
  WEATHER_PLUGIN,
  writeTestPlugin,
} from "../../src/runtime/runner/runner.test-support.js";
import { MARKER_PROMPT } from "../browser-safety/browser-safety.test-support.js";
import {
  type GatewayUnderTest,
  gatewayProcess,
  postResponse,
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
  watchedContext,
  writeHostilePlugin,
} from "./console.test-support.js";

// The tools page's search box and tool details in a real Chromium, against the built `toolsift gateway` over
// the mock provider: a key signs in and, with the keyboard only, searches the agent's catalog and sees
// exactly the text tool_search returned to the model in a real run, the bytes it saves, a hostile tool
// description shown literally, and a tool opened to its schema as tool_describe returns it.

const ALICE = {
  id: "alice",
  token: "tsk-console-tools-alice-5d4c3b2a1f0e9d8c7b6a",
  scopes: ["runs", "sessions:read"],
};
const RUN_SESSION = "alice-search";
/** Bound on starting the mock, the gateway and Chromium on a busy machine (against hangs, not a timing goal). */
const START_BOUND_MS = 60_000;

/** A plugin of many tools, so declaring every schema up front costs more than the controls and a search. */
const CRM_PLUGIN: TestPluginSpec = {
  id: "crm",
  tools: ["customer", "invoice", "ticket", "order", "contract", "lead", "refund", "shipment"].flatMap(
    (object) =>
      ["create", "update", "archive", "export"].map((verb) => ({
        name: `crm_${verb}_${object}`,
        description: `${verb[0]?.toUpperCase()}${verb.slice(1)} a ${object} record in the CRM, with an audit note.`,
        parameters: {
          type: "object",
          properties: {
            [`${object}_id`]: { type: "string", description: `The ${object}'s id in the CRM.` },
            note: { type: "string", description: "Why, for the audit log." },
            notify: { type: "boolean", description: "Tell the account owner by email." },
          },
          required: [`${object}_id`],
        },
      })),
  ),
};

/** The model's tool_search call in a session's log and the output the run sent back for it. */
type LoggedSearch = { args: { query: string; limit?: number }; output: string };

describe.skipIf(!browserTestsRun("console tools"))("the tools page's search box in a real Chromium", () => {
  let root: string;
  let shots: string;
  let mock: MockOpenAI;
  let gateway: GatewayUnderTest;
  let browser: Browser;
  let page: Page;
  const watch = newPageWatch();
  const { dialogs, consoleErrors } = watch;

  beforeAll(async () => {
    root = await tempDir("console-tools");
    shots = await screenshotFolder(root);
    mock = await startMockOpenAI({ port: 0 });
    const hostile = await writeHostilePlugin(root, join(root, "marker.jsonl"));
    const weather = await writeTestPlugin(join(root, "plugins"), WEATHER_PLUGIN);
    const crm = await writeTestPlugin(join(root, "plugins"), CRM_PLUGIN);
    const { configPath, env } = await writeConfig(root, join(root, "state"), {
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } },
      },
      agents: { defaults: { model: "mock/toolsift-mock" } },
      plugins: { load: { paths: [hostile, weather, crm] } },
      tools: { toolSearch: { enabled: true, mode: "tools" } },
      gateway: { auth: { keys: [ALICE] } },
    });
    gateway = await gatewayProcess(configPath, env);
    browser = await launchChromium();
    page = await (await watchedContext(browser, watch)).newPage();
  }, START_BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await mock?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** Nothing the page showed ran as script: no dialog, no `window.__xss`, no `<img>` or `<script>` in it. */
  async function expectNoScriptRan(): Promise<void> {
    expect(dialogs).toEqual([]);
    expect(await page.evaluate("window.__xss")).toBeUndefined();
    expect(await page.locator("main img, main script").count()).toBe(0);
  }

  /** Presses Tab until the focused element is `label` (`tag:id-or-text`); fails after a full round. */
  async function tabTo(label: string): Promise<void> {
    const seen: string[] = [];
    for (let step = 0; step < 80; step += 1) {
      await page.keyboard.press("Tab");
      const focused = (await page.evaluate(
        `(() => { const e = document.activeElement; if (!e || e === document.body) return ""; return e.tagName.toLowerCase() + ":" + (e.id || e.textContent.trim().slice(0, 40)); })()`,
      )) as string;
      if (focused === label) return;
      seen.push(focused);
    }
    throw new Error(`Tab never reached ${label}; it reached ${seen.join(", ")}`);
  }

  /** The one tool_search call of a session's run over the mock, from the gateway's own session log. */
  async function loggedSearch(sessionKey: string): Promise<LoggedSearch> {
    const response = await fetch(`${gateway.url}/v1/sessions/${sessionKey}`, {
      headers: { authorization: `Bearer ${ALICE.token}` },
    });
    const body = (await response.json()) as { events: Array<Record<string, unknown>> };
    const calls = body.events.flatMap((event) =>
      event.type === "assistant-output" ? (event.items as Array<Record<string, unknown>>) : [],
    );
    const call = calls.find((item) => item.type === "function_call" && item.name === "tool_search");
    const result = body.events.find((event) => event.type === "tool-result" && event.callId === call?.callId);
    if (call === undefined || typeof result?.output !== "string")
      throw new Error("no tool_search in the run");
    return { args: JSON.parse(String(call.arguments)), output: result.output };
  }

  /** The byte counts the page shows, by their names. */
  async function shownBytes(): Promise<Record<string, number>> {
    const names = await page.locator("#tool-search-bytes dt").allTextContents();
    const values = await page.locator("#tool-search-bytes dd strong").allTextContents();
    return Object.fromEntries(
      names.map((name, index) => [name, Number(values[index]?.replace(/[^0-9-]/gu, ""))]),
    );
  }

  it("signs in by keyboard and opens the tools page", async () => {
    await page.goto(`${gateway.url}/console/login`);
    await page.locator("#token").waitFor();
    await page.keyboard.type(ALICE.token);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${gateway.url}/console/sessions`);
    await page.goto(`${gateway.url}/console/tools`);
    await page.locator("#tool-query").waitFor();
    expect(await page.locator("#tools").textContent()).toContain("Search the catalog");
  });

  it("keyboard only: the search shows exactly what tool_search returned to the model in a run, and the bytes", async () => {
    const run = await postResponse(gateway.url, {
      input: MARKER_PROMPT,
      session: RUN_SESSION,
      token: ALICE.token,
    });
    expect(run.status).toBe(200);
    const logged = await loggedSearch(RUN_SESSION);

    await page.reload();
    await page.locator("#tool-query").waitFor();
    await tabTo("input:tool-query");
    await page.keyboard.type(logged.args.query);
    await tabTo("input:tool-limit");
    if (logged.args.limit !== undefined) await page.keyboard.type(String(logged.args.limit));
    await page.keyboard.press("Enter");
    const output = page.locator("#tool-search-output");
    await output.waitFor();
    expect(await output.textContent()).toBe(logged.output);
    expect(await page.locator("#tool-candidates li").first().textContent()).toContain(HOSTILE_TOOL);
    expect(await page.locator("#tool-search-answer").textContent()).not.toContain("undefined");

    const bytes = await shownBytes();
    expect(bytes["This search's result"]).toBe(Buffer.byteLength(logged.output, "utf8"));
    // 40 tools with schemas cost more up front than the controls and one search.
    expect(bytes["Every schema up front"]).toBeGreaterThan(bytes["Declared with Tool Search"] ?? Infinity);
    expect(bytes.Saved).toBeGreaterThan(0);
    expect(bytes.Saved).toBe(
      (bytes["Every schema up front"] ?? 0) -
        (bytes["Declared with Tool Search"] ?? 0) -
        (bytes["This search's result"] ?? 0),
    );
    // Each number says what it is.
    const explained = await page.locator("#tool-search-bytes").textContent();
    expect(explained).toContain("declaring every admitted tool");
    expect(explained).toContain("the text tool_search returns to the model");
  });

  it("a hostile tool description shows literally among the candidates; nothing runs", async () => {
    await page.locator("#tool-query").fill("record a visit note");
    await page.locator("#tool-limit").fill("");
    await page.keyboard.press("Enter");
    const hostileCandidate = page.locator("#tool-candidates li", { hasText: HOSTILE_TOOL });
    await hostileCandidate.waitFor();
    expect(await hostileCandidate.textContent()).toContain(hostileMarkup("description"));
    expect(await page.locator("#tool-search-output").textContent()).toContain("onerror=");
    await expectNoScriptRan();
  });

  it("keyboard only: a tool opens to its description and schema as tool_describe returns them", async () => {
    await tabTo(`summary:${HOSTILE_TOOL}`);
    await page.keyboard.press("Enter");
    const row = page.locator("#tools tbody tr", { hasText: HOSTILE_TOOL });
    const schema = row.locator(".tool-schema");
    await schema.waitFor();
    expect(JSON.parse((await schema.textContent()) ?? "")).toEqual({
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
    });
    expect(await row.locator(".tool-details").textContent()).toContain(hostileMarkup("description"));
    expect(await row.locator(".tool-details").textContent()).not.toContain("undefined");
    // Another tool, opened with Space.
    await tabTo("summary:weather_forecast");
    await page.keyboard.press("Space");
    const weather = page.locator("#tools tbody tr", { hasText: "weather_forecast" }).locator(".tool-schema");
    await weather.waitFor();
    expect(await weather.textContent()).toContain('"city"');
    await expectNoScriptRan();
    expect(consoleErrors).toEqual([]);
    // The page as an operator sees it: a search with its candidates and bytes, one tool opened.
    await page.locator("#tool-query").fill("weather forecast for a city");
    await page.locator("#tool-query").press("Enter");
    await page.locator("#tool-candidates li", { hasText: "weather_forecast" }).first().waitFor();
    // The top of the page (the search and the first tools, one opened), not the whole catalog's table.
    await page.setViewportSize({ width: 1200, height: 1600 });
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(shots, "tools.png") });
  });

  it("keyboard only: added queries are one batch call (queries), shown as the model gets it, with its bytes", async () => {
    await page.reload();
    await page.locator("#tool-query").waitFor();
    await tabTo("input:tool-query");
    await page.keyboard.type("weather forecast for a city");
    await tabTo("button:tool-add-query");
    await page.keyboard.press("Enter");
    // The new row's query has the focus.
    expect(await page.evaluate("document.activeElement.id")).toBe("tool-query-2");
    await page.keyboard.type("create a lead");
    await page.keyboard.press("Enter");
    const groups = page.locator("#tool-batch-results section");
    await groups.first().waitFor();
    expect(await groups.count()).toBe(2);
    expect(await groups.nth(0).locator("h3").textContent()).toContain("weather forecast for a city");
    expect(await groups.nth(0).textContent()).toContain("weather_forecast");
    const output = (await page.locator("#tool-search-output").textContent()) ?? "";
    const batch = JSON.parse(output) as { results: Array<{ query: string }> };
    expect(batch.results.map((group) => group.query)).toEqual([
      "weather forecast for a city",
      "create a lead",
    ]);
    expect((await shownBytes())["This search's result"]).toBe(Buffer.byteLength(output, "utf8"));
    await expectNoScriptRan();
    expect(consoleErrors).toEqual([]);
  });
});
