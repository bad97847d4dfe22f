import { afterEach, describe, expect, it } from "vitest";
import { ToolsiftError } from "../../shared/errors/index.js";
import type { Provider, ProviderRequest } from "../providers/index.js";
import { createProviderStatusBoard } from "./provider-status.js";
import { createRunnerHarness, type RunnerHarness, TEST_PROVIDER_ID } from "./runner.test-support.js";

const REQUEST: ProviderRequest = { model: "m", instructions: "", input: [], tools: [] };

/** A provider that answers or fails as `next` says. */
function scripted(id: string, next: { current: "answer" | ToolsiftError }): Provider {
  return {
    id,
    async complete() {
      if (next.current === "answer") return { output: [], requestBytes: 1 };
      throw next.current;
    },
  };
}

describe("createProviderStatusBoard", () => {
  it("reports configured providers as unknown, then as their last request says", async () => {
    const board = createProviderStatusBoard(["openai", "local"]);
    expect(board.snapshot()).toEqual({ local: "unknown", openai: "unknown" });
    const next: { current: "answer" | ToolsiftError } = { current: "answer" };
    const local = board.track(scripted("local", next));
    await local.complete(REQUEST);
    expect(board.snapshot()).toEqual({ local: "reachable", openai: "unknown" });

    const probes: Array<[ToolsiftError, string]> = [
      [new ToolsiftError("PROVIDER_FAILED", "down"), "unreachable"],
      [new ToolsiftError("PROVIDER_AUTH_FAILED", "bad key"), "unreachable"],
      // A cancel proves nothing about the provider: the status before it stays.
      [new ToolsiftError("CANCELLED", "the caller left"), "unreachable"],
    ];
    for (const [error, status] of probes) {
      next.current = error;
      await expect(local.complete(REQUEST)).rejects.toBe(error);
      expect(board.snapshot().local).toBe(status);
    }
    next.current = "answer";
    await local.complete(REQUEST);
    expect(board.snapshot().local).toBe("reachable");
  });

  it("adds a provider used without being configured (the default OpenAI one)", async () => {
    const board = createProviderStatusBoard([]);
    await board.track(scripted("openai", { current: "answer" })).complete(REQUEST);
    expect(board.snapshot()).toEqual({ openai: "reachable" });
  });
});

describe("runner.providerStatus", () => {
  let harness: RunnerHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it("follows the real provider's last request: unknown, reachable, then unreachable once it is down", async () => {
    harness = await createRunnerHarness({ toolSearch: false });
    expect(harness.runner.providerStatus?.()).toEqual({ [TEST_PROVIDER_ID]: "unknown" });
    expect((await harness.say("s1", "hello")).status).toBe("completed");
    expect(harness.runner.providerStatus?.()).toEqual({ [TEST_PROVIDER_ID]: "reachable" });
    await harness.mock?.close();
    expect((await harness.say("s2", "hello")).status).toBe("failed");
    expect(harness.runner.providerStatus?.()).toEqual({ [TEST_PROVIDER_ID]: "unreachable" });
  });
});
