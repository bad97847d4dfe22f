import { afterAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ConversationItem, Provider, ProviderRequest, ProviderResponse } from "../providers/index.js";
import { codeModeToolSearch, pluginTool, weatherTool } from "./code-mode.test-support.js";
import { createCodeMode } from "./create-code-mode.js";

/**
 * The model side of a Code Mode turn, scripted: the first request gets one exec call whose cell searches,
 * describes and calls the weather plugin; the next request answers from the cell's outcome. The runner does
 * not drive Code Mode yet, so the test runs the tool loop itself, as a runner would.
 */
class ScriptedCodeModeProvider implements Provider {
  readonly id = "scripted";
  readonly requests: ProviderRequest[] = [];

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const { signal: _signal, ...plain } = request;
    this.requests.push(structuredClone(plain));
    const requestBytes = Buffer.byteLength(JSON.stringify(plain));
    const answer = request.input.find((item) => item.type === "function_call_output");
    if (!answer) {
      const code = [
        'const hits = await tools.search("weather forecast for a city", { limit: 3 });',
        "const spec = await tools.describe(hits[0].id);",
        'const value = await tools.callValue(spec.id, { city: "Oslo" });',
        'console.log("used", spec.id);',
        "return value;",
      ].join("\n");
      return {
        output: [
          { type: "function_call", callId: "call_1", name: "exec", arguments: JSON.stringify({ code }) },
        ],
        requestBytes,
      };
    }
    const outcome = JSON.parse(answer.output) as { status: string; value?: { city: string; tempC: number } };
    const text =
      outcome.status === "completed" && outcome.value
        ? `It is ${outcome.value.tempC} °C in ${outcome.value.city}.`
        : `The cell failed: ${answer.output}`;
    return { output: [{ type: "message", role: "assistant", text }], requestBytes };
  }
}

/** Runs the turn as a runner would: declare the tools, execute the calls, feed the outputs back. */
async function runTurn(provider: Provider, tools: ToolDefinition[], userText: string): Promise<string> {
  const input: ConversationItem[] = [{ type: "message", role: "user", text: userText }];
  for (let step = 0; step < 4; step += 1) {
    const response = await provider.complete({
      model: "scripted-model",
      instructions: "You are a helpful agent.",
      input,
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        parameters: tool.parameters ?? {},
      })),
    });
    input.push(...response.output);
    const calls = response.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) {
      return response.output.map((item) => (item.type === "message" ? item.text : "")).join("");
    }
    for (const call of calls) {
      const tool = tools.find((candidate) => candidate.name === call.name);
      const result = tool
        ? await tool.execute(JSON.parse(call.arguments), { toolCallId: call.callId })
        : { content: [{ type: "text" as const, text: `Unknown tool ${call.name}` }], isError: true };
      const output = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      input.push({ type: "function_call_output", callId: call.callId, output });
    }
  }
  throw new Error("the scripted turn did not finish");
}

const weather = weatherTool();
const filler = Array.from({ length: 40 }, (_, index) =>
  pluginTool("bulk", `bulk_tool_${index}`, {
    description: `Bulk tool number ${index} for unrelated chores.`,
    parameters: { type: "object", properties: { input: { type: "string", description: "x".repeat(200) } } },
  }),
);
const toolSearch = codeModeToolSearch([weather.tool, ...filler]);
const codeMode = createCodeMode({ toolSearch });
afterAll(() => codeMode.close());

describe("a model turn with Code Mode (scripted provider, tool loop driven by the test)", () => {
  it("searches, describes and calls a plugin tool in one exec cell, then answers from its value", async () => {
    const provider = new ScriptedCodeModeProvider();
    const text = await runTurn(provider, codeMode.modelTools(), "What is the weather in Oslo?");

    expect(text).toBe("It is 21 °C in Oslo.");
    expect(weather.calls).toEqual([{ city: "Oslo" }]);
    expect(provider.requests).toHaveLength(2);
    const first = provider.requests[0];
    expect(first?.tools.map((tool) => tool.name)).toEqual(["exec", "wait"]);
    expect(first?.tools[0]?.description).toContain("- native:weather:get_forecast({ city: string })");
    const output = provider.requests[1]?.input.find((item) => item.type === "function_call_output");
    expect(JSON.parse(output?.type === "function_call_output" ? output.output : "{}")).toEqual({
      status: "completed",
      value: { city: "Oslo", tempC: 21 },
      logs: ["used native:weather:get_forecast"],
    });
    expect(toolSearch.telemetry()).toMatchObject({ searchCount: 1, describeCount: 1, callCount: 1 });
  });
});
