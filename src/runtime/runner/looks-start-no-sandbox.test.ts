import { afterEach, expect, test, vi } from "vitest";
import {
  assistantSays,
  createRunnerHarness,
  type RunnerHarness,
  scriptedProvider,
  userSays,
} from "./runner.test-support.js";

// Every Code Mode child (the availability probe's and the warm pool's) is launched through cellChildLaunch.
const launches = vi.hoisted(() => ({ count: 0 }));
vi.mock("../code-mode/child-launch.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../code-mode/child-launch.js")>();
  return {
    ...actual,
    cellChildLaunch: (...args: Parameters<typeof actual.cellChildLaunch>) => {
      launches.count += 1;
      return actual.cellChildLaunch(...args);
    },
  };
});

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

test("looks without a run at a Code Mode agent start no sandbox child; a run does", async () => {
  harness = await createRunnerHarness({ provider: scriptedProvider(() => [assistantSays("ok")]) });
  harness.config.codeMode = { enabled: true };
  const surface = await harness.runner.effectiveSurface("main");
  expect(surface.declaredTools.slice(0, 2)).toEqual(["exec", "wait"]);
  await harness.runner.searchTools?.({ agentId: "main", query: "weather" });
  await harness.runner.describeTool?.("main", "weather_forecast");
  await harness.runner.countInputTokens?.({ agentId: "main", input: [userSays("hello")] });
  await harness.runner.warm?.();
  expect(launches.count).toBe(0);

  // The count is real: a run of the same agent starts Code Mode's children.
  await harness.say("code-mode-run", "hello");
  expect(launches.count).toBeGreaterThan(0);
}, 60_000);
