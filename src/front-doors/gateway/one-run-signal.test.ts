import { afterEach, describe, expect, it } from "vitest";
import type { Provider } from "../../runtime/providers/index.js";
import type { Runner, RunSignal } from "../../runtime/runner/index.js";
import { createRunnerHarness, type RunnerHarness } from "../../runtime/runner/runner.test-support.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { type StartedGateway, startGateway } from "./start-gateway.js";

// A streamed gateway run has one signal: the gateway's (client, drain, the stream's reader), on which the runner
// arms the run timeout. Real runner and in-process gateway; the provider holds each request until its signal
// aborts and keeps that signal, so the test sees which signal the runner handed it.

let harness: RunnerHarness | undefined;
let started: StartedGateway | undefined;

afterEach(async () => {
  await started?.stop();
  started = undefined;
  await harness?.close();
  harness = undefined;
});

describe("a streamed gateway run's one signal", () => {
  it("is the gateway's RunSignal, handed to the runner and the provider, and its run timeout ends the run with TIMEOUT", async () => {
    const providerSignals: AbortSignal[] = [];
    const holding: Provider = {
      id: "mock",
      complete: (request) =>
        new Promise((_resolve, reject) => {
          const signal = request.signal;
          if (signal === undefined) throw new Error("the provider request has no signal");
          providerSignals.push(signal);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
    };
    harness = await createRunnerHarness({
      provider: holding,
      toolSearch: false,
      agentDefaults: { runTimeoutMs: 300 },
    });
    const runSignals: Array<RunSignal | undefined> = [];
    const real = harness.runner;
    const runner: Runner = Object.create(real, {
      run: {
        value: (request: Parameters<Runner["run"]>[0]) => {
          runSignals.push(request.runSignal);
          return real.run(request);
        },
      },
    });
    started = await startGateway({ runner, sessions: harness.sessions, port: 0, log: () => {} });

    const response = await fetch(`${started.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-toolsift-session": "one-signal" },
      body: JSON.stringify({ model: "toolsift", input: "hello", stream: true }),
    });
    const body = await response.text();

    expect(body).toContain("The run exceeded its timeout of 300 ms.");
    expect(runSignals).toHaveLength(1);
    const [run] = runSignals;
    expect(run).toBeDefined();
    expect(providerSignals).toHaveLength(1);
    expect(providerSignals[0]).toBe(run?.signal);
    expect(run?.timedOut).toBe(true);
    const reason: unknown = run?.signal.reason;
    expect(isToolsiftError(reason) && reason.code).toBe("TIMEOUT");
  });
});
