import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

// No container engine runs in CI, so the Dockerfile is not built here: this checks the parts a service
// needs are there (docs/deploy.md says so too).
const dockerfile = await readFile(new URL("../../Dockerfile", import.meta.url), "utf8");
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/gu, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const stages = instructions.filter((line) => line.startsWith("FROM "));
const runtime = instructions.slice(instructions.indexOf(stages.at(-1) ?? ""));

describe("Dockerfile", () => {
  it("is multi-stage on Node 20, and the runtime stage copies only the packed package from the build", () => {
    expect(stages).toEqual(["FROM node:20-bookworm-slim AS build", "FROM node:20-bookworm-slim AS runtime"]);
    expect(runtime).toContain("COPY --from=build /tmp/pack/ /tmp/pack/");
    expect(runtime.join("\n")).toMatch(/npm install --global --omit=dev .*toolsift-\*\.tgz/u);
  });

  it("runs as a non-root user", () => {
    const users = runtime.filter((line) => line.startsWith("USER "));
    expect(users).toEqual(["USER node"]);
    expect(runtime.indexOf("USER node")).toBeLessThan(runtime.findIndex((line) => line.startsWith("CMD ")));
  });

  it("checks its health on /healthz of the port it listens on", () => {
    const health = runtime.find((line) => line.startsWith("HEALTHCHECK "));
    expect(health).toContain("http://127.0.0.1:18789/healthz");
    expect(runtime).toContain("EXPOSE 18789");
    expect(runtime.find((line) => line.startsWith("CMD "))).toContain('"--port", "18789"');
  });

  it("keeps its state in a volume, pointed at by TOOLSIFT_STATE_DIR, owned by the user", () => {
    expect(runtime.join("\n")).toContain("TOOLSIFT_STATE_DIR=/var/lib/toolsift");
    expect(runtime).toContain('VOLUME ["/var/lib/toolsift"]');
    expect(runtime.join("\n")).toContain("chown node:node /var/lib/toolsift");
  });

  it("stops with SIGTERM (the gateway drains) and starts the gateway with a named config", () => {
    expect(runtime).toContain("STOPSIGNAL SIGTERM");
    expect(runtime).toContain('ENTRYPOINT ["toolsift"]');
    expect(runtime.find((line) => line.startsWith("CMD "))).toContain(
      '"--config", "/etc/toolsift/toolsift.json5"',
    );
  });
});
