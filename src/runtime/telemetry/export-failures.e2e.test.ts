import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { type GatewayProcess, startGatewayProcess } from "../../dev/qa/start-gateway-process.js";

let mock: MockOpenAI;
let collector: Server;
let collectorUp = false;
let received = 0;
let scratch = "";
let gateway: GatewayProcess | undefined;

/** The built gateway, exporting to a collector at a wrong path: every export is answered 404 until `collectorUp`, then 200. */
beforeAll(async () => {
  mock = await startMockOpenAI({ port: 0 });
  collector = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (!collectorUp) {
        response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
        return;
      }
      received += 1;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const port = (collector.address() as AddressInfo).port;
  scratch = await mkdtemp(join(tmpdir(), "toolsift-export-failures-"));
  const config = join(scratch, "toolsift.json");
  await writeFile(
    config,
    JSON.stringify({
      models: { providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: "mock-key" } } },
      agents: { defaults: { model: "mock/mock-tool-planner" } },
      telemetry: { otlp: { endpoint: `http://127.0.0.1:${port}/wrong-path` } },
    }),
  );
  gateway = await startGatewayProcess({
    configPath: config,
    env: {
      ...process.env,
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_METRIC_EXPORT_INTERVAL: "200",
      TOOLSIFT_HOME: scratch,
      TOOLSIFT_STATE_DIR: join(scratch, "state"),
    },
  });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await mock?.close();
  await new Promise((resolve) => collector?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

async function oneRun(session: string): Promise<number> {
  const response = await fetch(`${gateway?.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolsift-session": session },
    body: JSON.stringify({ model: "mock-tool-planner", input: "hello" }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; gateway log:\n${gateway?.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const lines = (pattern: RegExp) => (gateway?.stderr() ?? "").split("\n").filter((line) => pattern.test(line));

test("failed exports are logged once with the fix, runs go on, and recovery is logged once", async () => {
  expect(await oneRun("export-1")).toBe(200);
  await until(() => lines(/could not export/u).length > 0, "the export failure line");
  // Metrics fail every 200 ms and spans after each run: still one line, within the quiet minute.
  expect(await oneRun("export-2")).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const failures = lines(/telemetry: could not export/u);
  expect(failures).toHaveLength(1);
  expect(failures[0]).toMatch(
    /could not export (traces|metrics) to http:\/\/127\.0\.0\.1:\d+\/wrong-path: .*Not Found/u,
  );
  expect(failures[0]).toContain("telemetry.otlp.endpoint");
  expect(lines(/more exports/u)).toEqual([]);

  collectorUp = true;
  expect(await oneRun("export-3")).toBe(200);
  await until(() => lines(/works again/u).length > 0, "the recovery line");
  await until(() => received > 0, "an export that reached the collector");
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(lines(/works again/u)).toHaveLength(1);
  expect(gateway?.stderr()).not.toMatch(/^\s+at /mu);
}, 60_000);
