import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GatewayProcess } from "../../dev/qa/start-gateway-process.js";
import { createProvider } from "../../runtime/providers/index.js";
import { createRunnerHarness, type RunnerHarness } from "../../runtime/runner/runner.test-support.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";
import { startGatewayOnConfig } from "./gateway.test-support.js";
import {
  functionCallItem,
  type HoldingProvider,
  type HoldingReply,
  messageItem,
  startHoldingProvider,
} from "./holding-provider.test-support.js";
import { type StartedGateway, startGateway } from "./start-gateway.js";

// A client that leaves cancels its run, and a provider that never answers is bounded by the run timeout.
// Real parts: a fake provider on 127.0.0.1 that holds requests and records when their connections close (the
// real `openai` client talks to it), a plugin whose tools have side effects (files), and a real gateway: the
// built CLI as a child process (run `npm run build` first), or `startGateway` in-process where the test reads
// the gateway's queue.

let root: string;
let provider: HoldingProvider | undefined;
let gateway: GatewayProcess | undefined;

/** Files the plugin's tools write: proof of which tools ran and what they saw. */
type Evidence = { marker: string; waitStarted: string; waitAborted: string };

function evidence(): Evidence {
  return {
    marker: join(root, "marker-ran"),
    waitStarted: join(root, "wait-started"),
    waitAborted: join(root, "wait-aborted"),
  };
}

/** `record_marker` writes the marker file; `wait_for_abort` notes that it started, then waits for its signal. */
async function writeSideEffectPlugin(dir: string, files: Evidence): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = {
    id: "side-effects",
    name: "Side effects",
    version: "1.0.0",
    main: "index.js",
    tools: ["record_marker", "wait_for_abort"],
  };
  await writeFile(join(dir, "toolsift.plugin.json"), JSON.stringify(manifest));
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await writeFile(
    join(dir, "index.js"),
    `import { writeFileSync } from "node:fs";
const parameters = { type: "object", properties: {}, additionalProperties: false };
export function register(api) {
  api.registerTool({ name: "record_marker", description: "Writes the marker file.", parameters,
    execute: async () => { writeFileSync(${JSON.stringify(files.marker)}, "ran"); return { content: [{ type: "text", text: "marked" }] }; } });
  api.registerTool({ name: "wait_for_abort", description: "Waits until its call is aborted.", parameters,
    execute: (_args, context) => new Promise((resolve) => {
      writeFileSync(${JSON.stringify(files.waitStarted)}, "started");
      context.signal.addEventListener("abort", () => {
        writeFileSync(${JSON.stringify(files.waitAborted)}, "aborted");
        resolve({ content: [{ type: "text", text: "aborted" }] });
      }, { once: true });
    }) });
}
`,
  );
}

/** Starts the fake provider and `toolsift gateway` (built CLI) on a config that points at it. */
async function startAll(options: {
  reply?: (index: number) => HoldingReply;
  runTimeoutMs?: number;
  providerTimeoutMs?: number;
  maxRetries?: number;
}): Promise<{ url: string; held: HoldingProvider }> {
  const held = await startHoldingProvider(options.reply);
  provider = held;
  const pluginDir = join(root, "plugin");
  await writeSideEffectPlugin(pluginDir, evidence());
  const config = {
    models: {
      providers: {
        held: {
          api: "openai-responses",
          baseUrl: held.baseUrl,
          apiKey: "held-key",
          timeoutMs: options.providerTimeoutMs ?? 60_000,
          maxRetries: options.maxRetries ?? 2,
        },
      },
    },
    agents: {
      defaults: {
        model: "held/held-model",
        ...(options.runTimeoutMs === undefined ? {} : { runTimeoutMs: options.runTimeoutMs }),
      },
    },
    plugins: { load: { paths: [pluginDir] } },
    tools: { toolSearch: false },
  };
  gateway = await startGatewayOnConfig(root, join(root, "state"), config);
  return { url: gateway.url, held };
}

/** Starts a run the test can abort as a client that hangs up. */
function startRun(url: string, session: string, text: string) {
  const client = new AbortController();
  const answer = fetch(`${url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolsift-session": session },
    body: JSON.stringify({ model: "toolsift", input: text }),
    signal: client.signal,
  });
  answer.catch(() => {});
  return { client, answer };
}

async function sessionEvents(url: string, session: string): Promise<SessionEvent[]> {
  const response = await fetch(`${url}/v1/sessions/${session}?agent=main`);
  if (response.status === 404) return [];
  return ((await response.json()) as { events: SessionEvent[] }).events;
}

/** Polls until `check` gives a value (the test's own timeout bounds the wait). */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function runSummary(url: string, session: string) {
  return eventually(async () => {
    const events = await sessionEvents(url, session);
    return events.find(
      (event): event is Extract<SessionEvent, { type: "run-summary" }> => event.type === "run-summary",
    );
  });
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolsift-cancel-"));
});

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  await provider?.close();
  provider = undefined;
  await rm(root, { recursive: true, force: true });
});

describe("a client that disconnects cancels its run (toolsift gateway, built CLI)", () => {
  it("while the provider request is pending: the provider sees its connection closed, the log ends CANCELLED", async () => {
    const { url, held } = await startAll({});
    const run = startRun(url, "left-during-request", "hello");
    const request = await held.request(0);
    run.client.abort();

    await request.closedUnanswered;
    const summary = await runSummary(url, "left-during-request");
    expect(summary).toMatchObject({ status: "failed", turns: 1 });
    expect(summary.error).toMatch(/^CANCELLED: The client disconnected before the answer was sent/);
    expect(held.requests).toHaveLength(1);
    // The operator's log names the cancellation, with no stack trace.
    expect(gateway?.stderr()).toContain("CANCELLED");
    expect(gateway?.stderr()).not.toMatch(/^\s+at\s/m);
  });

  it("while a tool runs: the tool's signal aborts, no further provider request or tool call starts", async () => {
    const files = evidence();
    const { url, held } = await startAll({
      reply: (index) =>
        index === 0
          ? { output: [functionCallItem("call_wait", "wait_for_abort")] }
          : index === 1
            ? { output: [functionCallItem("call_marker", "record_marker")] }
            : { output: [messageItem("done")] },
    });
    const run = startRun(url, "left-during-tool", "wait, then mark");
    await eventually(() => (existsSync(files.waitStarted) ? true : undefined));
    run.client.abort();

    const summary = await runSummary(url, "left-during-tool");
    expect(summary.status).toBe("failed");
    expect(summary.error).toMatch(/^CANCELLED: The client disconnected/);
    expect(existsSync(files.waitAborted)).toBe(true);
    expect(held.requests).toHaveLength(1);
    expect(existsSync(files.marker)).toBe(false);
    const events = await sessionEvents(url, "left-during-tool");
    expect(events.filter((event) => event.type === "model-request")).toHaveLength(1);
  });

  it("a client that stays gets its answer: the same tools run when nobody leaves", async () => {
    const files = evidence();
    const { url, held } = await startAll({
      reply: (index) =>
        index === 0
          ? { output: [functionCallItem("call_marker", "record_marker")] }
          : { output: [messageItem("marked it")] },
    });
    const run = startRun(url, "stays", "mark");
    const response = await run.answer;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { output_text?: string }).output_text).toBe("marked it");
    expect(existsSync(files.marker)).toBe(true);
    expect(held.requests).toHaveLength(2);
    expect(held.requests.some((request) => request.wasClosed)).toBe(false);
  });
});

describe("a provider that never answers is bounded by the run timeout (toolsift gateway, built CLI)", () => {
  it("ends at runTimeoutMs with 504 run_timeout, one provider request, its connection closed", async () => {
    // The provider's own timeout (60 s per attempt, 2 retries) would hold the run for minutes.
    const { url, held } = await startAll({ runTimeoutMs: 800, providerTimeoutMs: 60_000, maxRetries: 2 });
    const response = await startRun(url, "hangs", "hello").answer;

    expect(response.status).toBe(504);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("run_timeout");
    expect(body.error.message).toBe("The run exceeded its timeout of 800 ms.");
    await held.requests[0]?.closedUnanswered;
    expect(held.requests).toHaveLength(1);
    expect((await runSummary(url, "hangs")).error).toMatch(/^RUN_TIMEOUT: /);
  });

  it("retries of short provider timeouts end with the run timeout, not after timeout x retries", async () => {
    // 11 attempts of 150 ms with backoff (0.5 s, 1 s, 2 s, 4 s, then 8 s) would take about a minute.
    const { url, held } = await startAll({ runTimeoutMs: 1_500, providerTimeoutMs: 150, maxRetries: 10 });
    const response = await startRun(url, "retries", "hello").answer;

    expect(response.status).toBe(504);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("run_timeout");
    expect(held.requests.length).toBeGreaterThanOrEqual(1);
    await Promise.all(held.requests.map((request) => request.closedUnanswered));
    expect((await runSummary(url, "retries")).error).toMatch(/^RUN_TIMEOUT: /);
  });
});

describe("a queued run whose client left never starts (startGateway in-process, to read its queue)", () => {
  let harness: RunnerHarness | undefined;
  let started: StartedGateway | undefined;

  afterEach(async () => {
    await started?.stop();
    started = undefined;
    await harness?.close();
    harness = undefined;
  });

  /** A provider that holds every request, a runner over it and an in-process gateway over the runner. */
  async function startOverHeldProvider(): Promise<{
    held: HoldingProvider;
    harness: RunnerHarness;
    started: StartedGateway;
  }> {
    const held = await startHoldingProvider(() => "hold");
    provider = held;
    const opened = await createRunnerHarness({
      provider: createProvider("held", { api: "openai-responses", baseUrl: held.baseUrl, maxRetries: 0 }),
      toolSearch: false,
    });
    harness = opened;
    started = await startGateway({
      runner: opened.runner,
      sessions: opened.sessions,
      port: 0,
      log: () => {},
    });
    return { held, harness: opened, started };
  }

  it("leaves the session queue at once; the run ahead of it completes; nothing of it reaches the provider or the log", async () => {
    const { held, harness, started } = await startOverHeldProvider();
    const { url } = started;
    const stats = () => started?.gateway.stats();

    const first = startRun(url, "queued", "first");
    const request = await held.request(0);
    const second = startRun(url, "queued", "second");
    await eventually(() => (stats()?.queued === 1 ? true : undefined));
    second.client.abort();
    await eventually(() => (stats()?.queued === 0 ? true : undefined));

    request.answer([messageItem("first done")]);
    const response = await first.answer;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { output_text?: string }).output_text).toBe("first done");
    await eventually(() => (stats()?.running === 0 ? true : undefined));

    expect(held.requests).toHaveLength(1);
    const events = await harness.events("queued");
    const inputs = events.filter((event) => event.type === "user-input");
    expect(inputs).toHaveLength(1);
    expect(JSON.stringify(inputs[0])).toContain("first");
    expect(events.filter((event) => event.type === "run-summary")).toEqual([
      expect.objectContaining({ status: "completed" }),
    ]);
  });

  it("a drain that runs out of time cancels the running run (its provider request closed) and the queued one never starts", async () => {
    const { held, harness, started } = await startOverHeldProvider();
    const { url, gateway: running } = started;

    const first = startRun(url, "drained", "first");
    const request = await held.request(0);
    const second = startRun(url, "drained", "second");
    await eventually(() => (running.stats().queued === 1 ? true : undefined));
    await running.drain(0);

    const [firstResponse, secondResponse] = await Promise.all([first.answer, second.answer]);
    type ErrorBody = { error: { code: string; message: string } };
    expect(firstResponse.status).toBe(503);
    expect(((await firstResponse.json()) as ErrorBody).error).toMatchObject({
      code: "cancelled",
      message: expect.stringMatching(/^The gateway is shutting down: send the request again/),
    });
    expect(secondResponse.status).toBe(503);
    expect(((await secondResponse.json()) as ErrorBody).error).toMatchObject({
      code: "cancelled",
      message: expect.stringContaining("The run had not started: nothing ran."),
    });
    await request.closedUnanswered;
    expect(held.requests).toHaveLength(1);
    const events = await harness.events("drained");
    expect(events.filter((event) => event.type === "user-input")).toHaveLength(1);
    expect(events.filter((event) => event.type === "run-summary")).toEqual([
      expect.objectContaining({
        status: "failed",
        error: expect.stringMatching(/^CANCELLED: The gateway is shutting down/),
      }),
    ]);
  });
});
