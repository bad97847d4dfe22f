import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver.test-support.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = fileURLToPath(new URL("../../front-doors/cli/main.ts", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./meta-echo-mcp-server.test-support.ts", import.meta.url));
/** Secrets that must reach no exported byte: the provider key, and a secret-named tool argument. */
const PROVIDER_KEY = "sk-telemetry-provider-key-0123456789abcdef";
const ARGUMENT_SECRET = "hunter2-telemetry-argument-secret";
/** The trace of the client that calls the gateway (its `traceparent` header). */
const CLIENT_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN_ID = "00f067aa0ba902b7";
const TOOL = "weather__lookup_weather";
/** Short export delays, so the test waits for spans by what arrives, not by time. */
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_METRIC_EXPORT_INTERVAL: "200" };

let receiver: OtlpReceiver;
let mock: MockOpenAI;
let scratch = "";
let gateway: ChildProcessByStdio<null, Readable, Readable> | undefined;
let gatewayLog = "";
let answer: { status: number; text: string };

/**
 * One run through two real processes: a `toolsift gateway` (mock provider over HTTP, OTLP endpoint from
 * `OTEL_EXPORTER_OTLP_ENDPOINT`) whose upstream MCP server is a real `toolsift mcp serve` over stdio
 * (endpoint from `telemetry.otlp.endpoint`), whose upstream is a real MCP server echoing the `traceparent`
 * it receives. Both export to one OTLP/HTTP receiver started here.
 */
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  mock = await startMockOpenAI({ port: 0 });
  scratch = await mkdtemp(join(tmpdir(), "toolsift-telemetry-"));
  const innerHome = join(scratch, "inner");
  const outerHome = join(scratch, "outer");
  await mkdir(innerHome, { recursive: true });
  await mkdir(outerHome, { recursive: true });
  const innerConfig = join(innerHome, "toolsift.json");
  await writeFile(
    innerConfig,
    JSON.stringify({
      tools: { toolSearch: false },
      mcp: {
        servers: {
          weather: { command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT },
        },
      },
      telemetry: { otlp: { endpoint: receiver.endpoint }, captureToolContent: true },
    }),
  );
  const outerConfig = join(outerHome, "toolsift.json");
  await writeFile(
    outerConfig,
    JSON.stringify({
      models: {
        providers: { mock: { api: "openai-responses", baseUrl: mock.baseUrl, apiKey: PROVIDER_KEY } },
      },
      agents: { defaults: { model: "mock/mock-tool-planner" } },
      tools: { toolSearch: { enabled: true, mode: "tools" } },
      mcp: {
        servers: {
          inner: {
            command: process.execPath,
            args: ["--import", "tsx", CLI, "mcp", "serve", "--config", innerConfig],
            cwd: ROOT,
            env: { ...FAST_EXPORT, TOOLSIFT_HOME: innerHome, TOOLSIFT_STATE_DIR: join(innerHome, "state") },
          },
        },
      },
      telemetry: { captureToolContent: true },
    }),
  );
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "gateway", "--port", "0", "--config", outerConfig],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...FAST_EXPORT,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        TOOLSIFT_HOME: outerHome,
        TOOLSIFT_STATE_DIR: join(outerHome, "state"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  gateway = child;
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    gatewayLog += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/u.exec(stdout);
      if (match?.[1]) resolve(match[1].replace(/\/$/u, ""));
    });
    child.once("exit", (code) => reject(new Error(`the gateway exited (${code}): ${gatewayLog}`)));
  });
  const response = await fetch(`${url}/v1/responses`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-toolsift-session": "telemetry-e2e",
      traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`,
    },
    body: JSON.stringify({ model: "mock-tool-planner", input: `Check the weather. target=${TOOL}` }),
  });
  const body = (await response.json()) as { output_text?: string; error?: { message?: string } };
  answer = { status: response.status, text: body.output_text ?? body.error?.message ?? "" };
  // Everything below ends before the answer; the exporters send within their short delays.
  await receiver.waitFor(
    () => receiver.spans().filter((span) => span.name === `tools/call lookup_weather`).length >= 1,
    "the inner MCP client span",
  );
  await receiver.waitFor(
    () => receiver.spans().some((span) => span.name.startsWith("invoke_agent")),
    "the run span",
  );
  await receiver.waitFor(
    () =>
      ["gen_ai.client.token.usage", "toolsift.search.hits"].every((name) =>
        receiver.metricNames().includes(name),
      ),
    "the metrics",
  );
  // A stop flushes what is left (SIGTERM: the gateway drains, then shuts telemetry down).
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}, 120_000);

afterAll(async () => {
  if (gateway && gateway.exitCode === null && gateway.signalCode === null) gateway.kill("SIGKILL");
  await receiver?.close();
  await mock?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function only(name: string, kind?: number): ReceivedSpan {
  const found = receiver
    .spans()
    .filter((span) => span.name === name && (kind === undefined || span.kind === kind));
  expect(
    found.map((span) => span.name),
    `exactly one span ${name}`,
  ).toEqual([name]);
  return found[0] as ReceivedSpan;
}

/** The gateway's span of the target behind `tool_call` (mcp serve has one of the same name, its direct call). */
function targetSpan(): ReceivedSpan {
  const found = receiver
    .spans()
    .filter(
      (span) =>
        span.name === `execute_tool ${TOOL}` && span.attributes["toolsift.tool.surface"] === "control",
    );
  expect(found).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

/** OTLP span kinds as the JSON encoding numbers them. */
const KIND = { internal: 1, server: 2, client: 3 } as const;

describe("OpenTelemetry traces and metrics of a gateway run and `mcp serve` (real processes, OTLP/HTTP JSON)", () => {
  it("answers the run with the tool's result, which quotes the traceparent toolsift sent upstream", () => {
    expect(answer.status, gatewayLog).toBe(200);
    expect(answer.text).toMatch(/sunny; traceparent=00-[0-9a-f]{32}-[0-9a-f]{16}-01/u);
  });

  it("continues the caller's trace: invoke_agent is a child of the traceparent the HTTP request carried", () => {
    const run = only("invoke_agent main");
    expect(run.traceId).toBe(CLIENT_TRACE_ID);
    expect(run.parentSpanId).toBe(CLIENT_SPAN_ID);
    expect(run.serviceName).toBe("toolsift");
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "main",
      "gen_ai.conversation.id": "telemetry-e2e",
      "gen_ai.provider.name": "mock",
      "gen_ai.request.model": "mock-tool-planner",
      "toolsift.run.status": "completed",
    });
    expect(run.attributes["toolsift.run.id"]).toMatch(/^run_/u);
  });

  it("makes one chat span per provider request, a child of the run, with usage and finish reasons", () => {
    const run = only("invoke_agent main");
    const chats = receiver.spans().filter((span) => span.name === "chat mock-tool-planner");
    // search, describe, call, answer (the mock's script).
    expect(chats.length).toBeGreaterThanOrEqual(3);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(run.spanId);
      expect(chat.kind).toBe(KIND.client);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "mock",
        "gen_ai.request.model": "mock-tool-planner",
      });
      expect(chat.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(chat.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      expect(String(chat.attributes["gen_ai.response.id"])).toMatch(/^resp_/);
    }
    expect(chats.map((chat) => chat.attributes["gen_ai.response.finish_reasons"])).toContainEqual(["stop"]);
    expect(chats.map((chat) => chat.attributes["gen_ai.response.finish_reasons"])).toContainEqual([
      "tool_call",
    ]);
  });

  it("makes a tool_search span under the run with its query count, limit and hit count", () => {
    const run = only("invoke_agent main");
    const search = only("execute_tool tool_search");
    expect(search.parentSpanId).toBe(run.spanId);
    expect(search.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "tool_search",
      "gen_ai.tool.type": "function",
      "toolsift.search.query_count": 1,
      "toolsift.search.limit": 1,
      "toolsift.search.hit_count": 1,
      "toolsift.tool.outcome": "ok",
    });
    expect(search.attributes["gen_ai.tool.call.id"]).toMatch(/^call_/u);
  });

  it("nests run → tool_call → the target → the MCP client call, and mcp serve continues that trace", () => {
    const run = only("invoke_agent main");
    const control = only("execute_tool tool_call");
    const target = targetSpan();
    const outerClient = only(`tools/call ${TOOL}`, KIND.client);
    const innerServer = only(`tools/call ${TOOL}`, KIND.server);
    const innerTool = receiver
      .spans()
      .filter((span) => span.name === `execute_tool ${TOOL}` && span.spanId !== target.spanId);
    const innerClient = only("tools/call lookup_weather", KIND.client);
    expect(control.parentSpanId).toBe(run.spanId);
    expect(target.parentSpanId).toBe(control.spanId);
    expect(target.attributes).toMatchObject({
      "gen_ai.tool.name": TOOL,
      "gen_ai.tool.call.id": control.attributes["gen_ai.tool.call.id"],
      "toolsift.tool.id": `mcp:inner:${TOOL}`,
      "toolsift.tool.source": "mcp",
      "toolsift.tool.surface": "control",
      "toolsift.tool.outcome": "ok",
    });
    expect(outerClient.parentSpanId).toBe(target.spanId);
    expect(outerClient.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": TOOL,
      "network.transport": "pipe",
      "toolsift.mcp.server": "inner",
    });
    // The other process: its server span is the child of the gateway's client span, in the same trace.
    expect(innerServer.traceId).toBe(CLIENT_TRACE_ID);
    expect(innerServer.parentSpanId).toBe(outerClient.spanId);
    expect(innerServer.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": TOOL,
    });
    expect(innerTool.map((span) => span.parentSpanId)).toEqual([innerServer.spanId]);
    expect(innerClient.parentSpanId).toBe(innerTool[0]?.spanId);
    expect(innerClient.traceId).toBe(CLIENT_TRACE_ID);
    // What the upstream server received in `params._meta` names the inner client span.
    expect(answer.text).toContain(`traceparent=00-${CLIENT_TRACE_ID}-${innerClient.spanId}-01`);
    // Every span of both processes is in the caller's trace.
    expect(new Set(receiver.spans().map((span) => span.traceId))).toEqual(new Set([CLIENT_TRACE_ID]));
  });

  it("captures tool content only when opted in, redacted; the provider key reaches no exported byte", () => {
    const target = targetSpan();
    expect(target.attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Oslo"}');
    expect(target.attributes["gen_ai.tool.call.result"]).toContain("sunny; traceparent=");
    expect(receiver.bodies().join("\n")).not.toContain(PROVIDER_KEY);
  });

  it("exports the GenAI client metrics and toolsift's tool and search metrics", () => {
    expect(receiver.metricNames()).toEqual(
      expect.arrayContaining([
        "gen_ai.client.operation.duration",
        "gen_ai.client.token.usage",
        "gen_ai.execute_tool.duration",
        "toolsift.search.duration",
        "toolsift.search.hits",
      ]),
    );
  });
});

describe("`mcp serve` called by an MCP client that sends a traceparent and a secret argument", () => {
  const CALLER_TRACE_ID = "5cf92f3577b34da6a3ce929d0e0e4737";
  const CALLER_SPAN_ID = "11f067aa0ba902b8";
  let result = "";

  beforeAll(async () => {
    const home = join(scratch, "direct");
    await mkdir(home, { recursive: true });
    const config = join(home, "toolsift.json");
    await writeFile(
      config,
      JSON.stringify({
        tools: { toolSearch: false },
        mcp: {
          servers: { weather: { command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT } },
        },
        telemetry: { otlp: { endpoint: receiver.endpoint }, captureToolContent: true },
      }),
    );
    const client = new Client({ name: "telemetry-e2e", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", CLI, "mcp", "serve", "--config", config],
        cwd: ROOT,
        env: {
          ...(process.env as Record<string, string>),
          ...FAST_EXPORT,
          TOOLSIFT_HOME: home,
          TOOLSIFT_STATE_DIR: join(home, "state"),
        },
        stderr: "ignore",
      }),
    );
    const called = await client.callTool({
      name: TOOL,
      arguments: { city: "Oslo", password: ARGUMENT_SECRET },
      _meta: { traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01` },
    });
    const content = called.content as { type: string; text?: string }[];
    result = content.map((block) => block.text ?? "").join("");
    await receiver.waitFor(
      () =>
        receiver
          .spans()
          .some((span) => span.traceId === CALLER_TRACE_ID && span.name === "tools/call lookup_weather"),
      "the spans of the direct mcp serve call",
    );
    await client.close();
  }, 60_000);

  it("continues the caller's trace: its server span is the child of the caller's span", () => {
    const spans = receiver.spans().filter((span) => span.traceId === CALLER_TRACE_ID);
    const server = spans.find((span) => span.name === `tools/call ${TOOL}` && span.kind === KIND.server);
    const tool = spans.find((span) => span.name === `execute_tool ${TOOL}`);
    const upstream = spans.find((span) => span.name === "tools/call lookup_weather");
    expect(server?.parentSpanId).toBe(CALLER_SPAN_ID);
    expect(server?.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": expect.any(String),
    });
    expect(tool?.parentSpanId).toBe(server?.spanId);
    expect(upstream?.parentSpanId).toBe(tool?.spanId);
    expect(result).toContain(`traceparent=00-${CALLER_TRACE_ID}-${upstream?.spanId}-01`);
  });

  it("captures the arguments with the secret redacted, and the secret reaches no exported byte", () => {
    const tool = receiver
      .spans()
      .find((span) => span.traceId === CALLER_TRACE_ID && span.name === `execute_tool ${TOOL}`);
    const captured = String(tool?.attributes["gen_ai.tool.call.arguments"]);
    expect(captured).toContain('"city":"Oslo"');
    expect(captured).toContain('"password"');
    expect(captured).not.toContain(ARGUMENT_SECRET);
    expect(receiver.bodies().join("\n")).not.toContain(ARGUMENT_SECRET);
  });
});
