import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { createRunCaches, type RunCaches } from "../environment/index.js";
import {
  assistantSays,
  createRunnerHarness,
  type RunnerHarness,
  type RunnerHarnessOptions,
  scriptedProvider,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const lookupOrder = (description: string): ToolDefinition => ({
  name: "lookup_order",
  description,
  parameters: { type: "object", properties: { id: { type: "string" } } },
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
});

/** A runner over core tools and one extra tool, Tool Search in tools mode, sharing `caches`. */
function sharedCatalogOptions(
  caches: RunCaches,
  provider: RunnerHarnessOptions["provider"],
): RunnerHarnessOptions {
  return {
    caches,
    coreTools: true,
    toolSearch: { enabled: true, mode: "tools" },
    ...(provider ? { provider } : {}),
    extraTools: [lookupOrder("Look up an order by its id.")],
  };
}

describe("runs reuse the catalog of their unchanged tool sources", () => {
  it("core, plugin and extra tools are cataloged once across runs, and a changed source is cataloged anew", async () => {
    const provider = scriptedProvider(() => [assistantSays("done")]);
    // The harness reads `extraTools` from this object on every run: replacing it changes the source.
    const caches = createRunCaches();
    const options = sharedCatalogOptions(caches, provider);
    harness = await createRunnerHarness(options);
    for (let run = 0; run < 3; run += 1) {
      expect((await harness.say(`s${run}`, "hello")).status).toBe("completed");
    }
    expect(caches.catalogs.size).toBe(1);
    const [first, ...later] = provider.requests;
    for (const request of later) {
      expect(request.instructions).toBe(first?.instructions);
      expect(JSON.stringify(request.tools)).toBe(JSON.stringify(first?.tools));
    }

    options.extraTools = [lookupOrder("Look up a shipped order by its tracking id.")];
    expect((await harness.say("s-changed", "hello")).status).toBe("completed");
    expect(caches.catalogs.size).toBe(2);
    const changed = provider.requests.at(-1);
    expect(changed?.instructions).toContain("lookup_order");
    expect(changed?.instructions).not.toBe(first?.instructions);
  });

  it("a source that states a version is found by it: a new array of the same version reuses the catalog, a new version does not", async () => {
    const provider = scriptedProvider(() => [assistantSays("done")]);
    const caches = createRunCaches();
    let version = 1;
    const options = { ...sharedCatalogOptions(caches, provider), extraToolsVersion: () => version };
    harness = await createRunnerHarness(options);
    expect((await harness.say("s0", "hello")).status).toBe("completed");
    // The same definitions in a new array, same version: found by the version.
    options.extraTools = [...(options.extraTools ?? [])];
    expect((await harness.say("s1", "hello")).status).toBe("completed");
    expect(caches.catalogs.size).toBe(1);
    expect(provider.requests[1]?.instructions).toBe(provider.requests[0]?.instructions);

    options.extraTools = [lookupOrder("Look up a shipped order by its tracking id.")];
    version = 2;
    expect((await harness.say("s2", "hello")).status).toBe("completed");
    expect(caches.catalogs.size).toBe(2);
    expect(provider.requests.at(-1)?.instructions).not.toBe(provider.requests[0]?.instructions);
  });
});
