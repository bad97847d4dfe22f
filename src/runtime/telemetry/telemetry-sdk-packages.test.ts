import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { TELEMETRY_SDK_PACKAGES } from "./start-configured-telemetry.js";

describe("the OpenTelemetry SDK is an optional peer dependency", () => {
  it("the install hint names exactly package.json's optional peers, at their versions, also in devDependencies", async () => {
    const manifest = JSON.parse(
      await readFile(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    const telemetryPeers = Object.entries(manifest.peerDependencies).filter(([name]) =>
      name.startsWith("@opentelemetry/"),
    );
    const peers = telemetryPeers.map(([name, version]) => `${name}@${version}`);
    expect([...TELEMETRY_SDK_PACKAGES]).toEqual(peers);
    for (const [name] of telemetryPeers) {
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(manifest.devDependencies[name]).toBe(manifest.peerDependencies[name]);
      expect(manifest.dependencies[name]).toBeUndefined();
    }
  });
});
