// The lanes every agent CLI runs, as one shared suite (like the gateway's stream conformance suite): through a
// real `toolsift gateway` over a real `toolsift mock-openai`, and with `toolsift mcp serve` as its MCP server.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentCli, type AgentConversation, builtMcpServe } from "./agent-clis.test-support.js";
import {
  agentsMissingReason,
  declaredToolNames,
  type GatewayProcess,
  gatewaySessions,
  LANE_TIMEOUT_MS,
  type MockProcess,
  type MockRequest,
  mcpServeConfig,
  mockCursor,
  mockRequests,
  modelExchanges,
  type RecordingProxy,
  startGateway,
  startMock,
  startRecordingProxy,
  tempDir,
  uniqueMarker,
} from "./agents.test-support.js";

/** A call the model made, as the next request to the mock carries it (namespaced as `ns/name`). */
export type RecordedCall = { name: string; arguments: string };

/** The calls a recorded model request carries in its history (Responses items or Messages `tool_use`). */
export function callsIn(body: Record<string, unknown>): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
  for (const item of input)
    if (item.type === "function_call")
      calls.push({
        name:
          typeof item.namespace === "string" ? `${item.namespace}/${String(item.name)}` : String(item.name),
        arguments: String(item.arguments),
      });
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  for (const message of messages)
    if (Array.isArray(message.content))
      for (const block of message.content as Array<Record<string, unknown>>)
        if (block.type === "tool_use")
          calls.push({ name: String(block.name), arguments: JSON.stringify(block.input ?? {}) });
  return calls;
}

/** Every call in the last request of a conversation (each request resends or replays the whole turn). */
function lastCalls(requests: readonly MockRequest[]): RecordedCall[] {
  const last = requests.at(-1);
  return last === undefined ? [] : callsIn(last.body);
}

function explain(conversation: AgentConversation): string {
  const { run } = conversation;
  return `exit ${run.code}${run.timedOut ? " (timed out)" : ""}\nstdout:\n${run.stdout.slice(-3000)}\nstderr:\n${run.stderr.slice(-3000)}`;
}

/** Registers the gateway lanes and the MCP lanes of one agent CLI; skips them, saying why, when it is not installed. */
export function describeAgentLanes(cli: AgentCli): void {
  const missing = agentsMissingReason(cli.bin);
  if (missing !== undefined) {
    console.warn(`[agents] ${cli.name} lanes skipped: ${missing}`);
    describe.skip(`${cli.name} lanes (not installed: ${missing})`, () => {
      it("needs the agent CLI", () => undefined);
    });
    return;
  }

  describe(`${cli.name} through toolsift gateway`, () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let mock: MockProcess;
    let gateway: GatewayProcess;
    let proxy: RecordingProxy;
    let conversations = 0;

    beforeAll(async () => {
      dir = await tempDir("agents-gateway");
      mock = await startMock();
      gateway = await startGateway(mock, dir.path);
      proxy = await startRecordingProxy(gateway.url);
    }, LANE_TIMEOUT_MS);

    afterAll(async () => {
      await proxy?.close();
      await gateway?.stop();
      await mock?.stop();
      await dir?.remove();
    });

    /** One conversation through the recording proxy; returns it with the mock requests and exchanges it caused. */
    async function converse(prompt: string) {
      conversations += 1;
      const after = await mockCursor(mock);
      const exchangesBefore = proxy.exchanges.length;
      const conversationDir = join(dir.path, `conversation-${conversations}`);
      const conversation = await cli.converse({ origin: proxy.url, prompt, dir: conversationDir });
      return {
        conversation,
        requests: await mockRequests(mock, after),
        exchanges: modelExchanges({ ...proxy, exchanges: proxy.exchanges.slice(exchangesBefore) }),
      };
    }

    it(
      "reaches a plugin tool through tool_search",
      async () => {
        const { conversation, requests } = await converse(
          "What is the weather in Berlin tomorrow? target=get_forecast",
        );
        expect(conversation.finalText, explain(conversation)).toContain("Forecast for qa");
        // The model saw the controls, not the plugin tool, and reached it by searching.
        expect(declaredToolNames(requests[0]?.body ?? {})).toEqual(
          expect.arrayContaining(["tool_search", "tool_call"]),
        );
        expect(declaredToolNames(requests[0]?.body ?? {})).not.toContain("get_forecast");
        const calls = lastCalls(requests);
        expect(calls.map((call) => call.name)).toEqual(["tool_search", "tool_call"]);
        expect(calls[1]?.arguments).toContain("get_forecast");
      },
      LANE_TIMEOUT_MS,
    );

    it(
      "completes a client tool round trip: the agent runs its own shell tool",
      async () => {
        const marker = uniqueMarker();
        const { conversation, exchanges } = await converse(
          `Run this command. target=${cli.shellTool} cmd=echo ${marker}`,
        );
        expect(conversation.finalText, explain(conversation)).toContain(marker);
        // The gateway handed the call back: the agent's first answer is its shell call, and the agent sent
        // the command's output (with the marker, which only the shell prints) in its next request.
        expect(exchanges.length, explain(conversation)).toBeGreaterThanOrEqual(2);
        expect(exchanges[0]?.responseBody).toContain(cli.shellTool);
        expect(exchanges.at(-1)?.requestBody).toContain(marker);
      },
      LANE_TIMEOUT_MS,
    );

    it(
      "streams every answer as server-sent events",
      async () => {
        const { conversation, exchanges } = await converse(
          "What are the conditions in Berlin right now? target=get_current_conditions",
        );
        expect(conversation.finalText, explain(conversation)).toContain("Done.");
        expect(exchanges.length).toBeGreaterThanOrEqual(1);
        for (const exchange of exchanges) {
          expect(JSON.parse(exchange.requestBody)).toMatchObject({ stream: true });
          expect(exchange.status).toBe(200);
          expect(exchange.contentType).toContain("text/event-stream");
          expect(exchange.dataFrames).toBeGreaterThan(3);
        }
      },
      LANE_TIMEOUT_MS,
    );

    it(
      "leaves one session per conversation",
      async () => {
        const before = (await gatewaySessions(gateway)).length;
        const marker = uniqueMarker();
        const { conversation, exchanges } = await converse(
          `Run this command. target=${cli.shellTool} cmd=echo ${marker}`,
        );
        expect(conversation.finalText, explain(conversation)).toContain(marker);
        expect(exchanges.length).toBeGreaterThanOrEqual(2);
        expect((await gatewaySessions(gateway)).length - before).toBe(1);
      },
      LANE_TIMEOUT_MS,
    );
  });

  describe(`${cli.name} with toolsift mcp serve as its MCP server`, () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let mock: MockProcess;

    beforeAll(async () => {
      dir = await tempDir("agents-mcp");
      mock = await startMock();
    }, LANE_TIMEOUT_MS);

    afterAll(async () => {
      await mock?.stop();
      await dir?.remove();
    });

    it(
      "lists the three controls and reaches an upstream MCP tool through them",
      async () => {
        const configPath = join(dir.path, "toolsift-mcp.json5");
        await writeFile(configPath, mcpServeConfig());
        const after = await mockCursor(mock);
        const conversation = await cli.converse({
          origin: mock.base,
          prompt: "Look up contact qa. target=stdio_get_contact",
          dir: join(dir.path, "conversation"),
          mcpServe: builtMcpServe(configPath, { TOOLSIFT_STATE_DIR: join(dir.path, "mcp-state") }),
        });
        const requests = await mockRequests(mock, after);
        expect(conversation.finalText, explain(conversation)).toContain("stdio_get_contact ok");
        const declared = declaredToolNames(requests[0]?.body ?? {});
        expect(declared).toEqual(expect.arrayContaining([...cli.mcpControlNames]));
        expect(declared.some((name) => name.includes("stdio_get_contact"))).toBe(false);
        const called = lastCalls(requests).map((call) => call.name);
        expect(called[0]).toBe(cli.mcpControlNames[0]);
        expect(called.at(-1)).toBe(cli.mcpControlNames[2]);
      },
      LANE_TIMEOUT_MS,
    );
  });
}
