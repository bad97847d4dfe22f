import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { PROVIDER_SDKS, providerSdk, providerSdkProblem } from "./provider-sdks.js";

type Manifest = {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe("the provider clients are optional peer dependencies", () => {
  it("each one is an optional peer from the tested version up, the tested version a devDependency, no dependency", async () => {
    const manifest = JSON.parse(
      await readFile(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as Manifest;
    expect(PROVIDER_SDKS.map((sdk) => sdk.name).sort()).toEqual(["@anthropic-ai/sdk", "openai"]);
    for (const { name, version } of PROVIDER_SDKS) {
      expect(manifest.peerDependencies[name]).toBe(`^${version}`);
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(manifest.devDependencies[name]).toBe(version);
      expect(manifest.dependencies[name]).toBeUndefined();
    }
  });

  it("each API names the client it loads; with both installed (this repository) no provider has a problem", () => {
    expect(providerSdk("openai-responses").name).toBe("openai");
    expect(providerSdk("openai-chat").name).toBe("openai");
    expect(providerSdk("anthropic-messages").name).toBe("@anthropic-ai/sdk");
    expect(providerSdkProblem("openai", "openai-responses")).toBeUndefined();
    expect(providerSdkProblem("claude", "anthropic-messages")).toBeUndefined();
  });
});
