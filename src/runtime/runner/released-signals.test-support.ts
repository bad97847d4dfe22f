/**
 * Child-process half of `run-signal.gc.test.ts`: run as `node --expose-gc --import tsx <this file>`. Prints one
 * JSON line saying which abort signals survived a forced garbage collection:
 *
 * - `createRunSignal` alone: a released signal linked to a long-lived source with a long timer, and (as the
 *   control that shows a leak is visible) one left unreleased;
 * - real runs: `RUNS` runs of a real runner (the mock provider over HTTP through the real `openai` client, a
 *   plugin tool, file sessions) under one long-lived caller signal, as the gateway's drain signal is: every
 *   provider request's signal and every tool call's signal is tracked with a WeakRef.
 */
import { getEventListeners } from "node:events";
import { startMockOpenAI } from "../../dev/mock-openai/index.js";
import { createProvider, type Provider } from "../providers/index.js";
import { createRunSignal } from "./run-signal.js";
import { createRunnerHarness, TEST_PROVIDER_ID, WEATHER_TOOLS } from "./runner.test-support.js";

const RUNS = 12;
const LONG_TIMEOUT_MS = 600_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

async function collect(): Promise<void> {
  for (let pass = 0; pass < 6; pass += 1) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const alive = (refs: ReadonlyArray<WeakRef<object>>) =>
  refs.filter((ref) => ref.deref() !== undefined).length;

const drain = new AbortController();

// createRunSignal on its own: released ones, and (the control) ones nobody released, of which nothing but
// their source's listener and their timer keeps a reference.
const controlSource = new AbortController();
const released: WeakRef<AbortSignal>[] = [];
const unreleased: WeakRef<AbortSignal>[] = [];
// In a function of its own, so no stack slot of this module keeps the last one.
function makeSignals(): void {
  for (let index = 0; index < 4; index += 1) {
    const run = createRunSignal({ sources: [drain.signal], timeoutMs: LONG_TIMEOUT_MS });
    released.push(new WeakRef(run.signal));
    run.release();
    const leaky = createRunSignal({ sources: [controlSource.signal], timeoutMs: LONG_TIMEOUT_MS });
    unreleased.push(new WeakRef(leaky.signal));
  }
}
makeSignals();
await collect();
const signalsAlone = {
  released: { total: released.length, alive: alive(released) },
  unreleased: { total: unreleased.length, alive: alive(unreleased) },
};

// Real runs under the long-lived signal.
const providerSignals: WeakRef<AbortSignal>[] = [];
const toolSignals: WeakRef<AbortSignal>[] = [];
const mock = await startMockOpenAI({ port: 0 });
const real = createProvider(TEST_PROVIDER_ID, {
  api: "openai-responses",
  baseUrl: mock.baseUrl,
  maxRetries: 0,
});
const provider: Provider = {
  id: real.id,
  complete(request) {
    if (request.signal) providerSignals.push(new WeakRef(request.signal));
    return real.complete(request);
  },
};
const harness = await createRunnerHarness({
  provider,
  toolSearch: false,
  plugins: [
    {
      id: "weather",
      tools: WEATHER_TOOLS.map((tool) => ({
        ...tool,
        body: `globalThis.__toolSignals?.push(new WeakRef(context.signal));
      return { content: [{ type: "text", text: ${JSON.stringify(`${tool.name} ok `)} + JSON.stringify(args) }] };`,
      })),
    },
  ],
});
(globalThis as { __toolSignals?: WeakRef<AbortSignal>[] }).__toolSignals = toolSignals;
const statuses: string[] = [];
for (let index = 0; index < RUNS; index += 1) {
  const result = await harness.say(`gc-${index}`, "weather please target=weather_forecast", {
    signal: drain.signal,
  });
  statuses.push(result.status);
}
await harness.close();
await mock.close();
await collect();

process.stdout.write(
  `${JSON.stringify({
    ...signalsAlone,
    runs: RUNS,
    statuses,
    providerSignals: { total: providerSignals.length, alive: alive(providerSignals) },
    toolSignals: { total: toolSignals.length, alive: alive(toolSignals) },
    drainListeners: getEventListeners(drain.signal, "abort").length,
  })}\n`,
);
