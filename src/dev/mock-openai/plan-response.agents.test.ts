import { describe, expect, it } from "vitest";
import type { ConversationItem, ProviderTool } from "../../runtime/providers/index.js";
import { planResponse } from "./plan-response.js";

const tool = (
  name: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
): ProviderTool => ({
  name,
  description: name,
  parameters: { type: "object", properties, required },
});
const controls = (prefix = ""): ProviderTool[] =>
  ["tool_search", "tool_describe", "tool_call"].map((name) => tool(`${prefix}${name}`));
const call = (callId: string, name: string, args: unknown): ConversationItem => ({
  type: "function_call",
  callId,
  name,
  arguments: JSON.stringify(args),
});
const output = (callId: string, text: string): ConversationItem => ({
  type: "function_call_output",
  callId,
  output: text,
});
const say = (text: string): ConversationItem[] => [{ type: "message", role: "assistant", text }];
const envelope = (text: string) =>
  JSON.stringify({
    tool: { id: "client:client:Bash", name: "Bash" },
    result: { content: [{ type: "text", text }] },
  });

/** Claude Code's and Codex's shell tools, as they declare them. */
const bash = tool("Bash", { command: { type: "string" }, description: { type: "string" } }, ["command"]);
const execCommand = tool("exec_command", { cmd: { type: "string" }, workdir: { type: "string" } }, ["cmd"]);

describe("planResponse: a resent turn whose target already ran", () => {
  it("answers with the output of a direct call to the target, though the target is not declared now", () => {
    // A stateless client resent the turn; the gateway replayed the client's call, the target is behind search.
    const items = [call("c1", "Bash", { command: "echo m-1" }), output("c1", "m-1")];
    expect(planResponse({ userText: "target=Bash cmd=echo m-1", items, tools: controls() })).toEqual(
      say("Done. m-1"),
    );
  });

  it("answers with a tool_call output whose id names the target, without searching again", () => {
    const items = [
      call("c1", "tool_call", { id: "client:client:Bash", args: {} }),
      output("c1", envelope("m-2")),
    ];
    expect(planResponse({ userText: "target=Bash", items, tools: controls() })).toEqual(say("Done. m-2"));
  });

  it("reads a client tool's own output replayed under tool_call", () => {
    const items = [call("c1", "tool_call", { id: "client:client:Bash", args: {} }), output("c1", "m-3\n")];
    expect(planResponse({ userText: "target=Bash", items, tools: controls() })).toEqual(say("Done. m-3"));
  });

  it("keeps a plugin tool's plain-text tool_call output an error (the controls answer errors in text)", () => {
    const items = [
      call("c1", "tool_call", { id: "native:weather:get_forecast", args: {} }),
      output("c1", "Unknown tool"),
    ];
    expect(planResponse({ userText: "target=get_forecast", items, tools: controls() })).toEqual(
      say("mock: tool_call failed: Unknown tool"),
    );
  });

  it("reports a failed earlier call instead of repeating it", () => {
    const items = [call("c1", "Bash", {}), output("c1", JSON.stringify({ error: "denied" }))];
    expect(planResponse({ userText: "target=Bash", items, tools: controls() })).toEqual(
      say("mock: Bash failed: denied"),
    );
  });

  it("still plans when only one of two targets has run", () => {
    const items = [call("c1", "Bash", {}), output("c1", "one")];
    const plan = planResponse({ userText: "target=Bash and=Read", items, tools: controls() });
    expect(plan).toEqual([
      call("call_1", "tool_search", {
        queries: [
          { query: "Bash", limit: 1 },
          { query: "Read", limit: 1 },
        ],
      }),
    ]);
  });
});

describe("planResponse: controls under an MCP client's prefix or a namespace", () => {
  it("searches with mcp__<server>__tool_search", () => {
    expect(
      planResponse({ userText: "target=stdio_get_contact", items: [], tools: controls("mcp__toolsift__") }),
    ).toEqual([call("call_1", "mcp__toolsift__tool_search", { query: "stdio_get_contact", limit: 1 })]);
  });

  it("finds controls under any mcp__<x>__ prefix and under a namespace", () => {
    for (const prefix of ["mcp__my_server__", "mcp__a-b__", "tools.", "mcp__toolsift__"]) {
      const plan = planResponse({ userText: "target=x_tool", items: [], tools: controls(prefix) });
      expect(plan).toEqual([call("call_1", `${prefix}tool_search`, { query: "x_tool", limit: 1 })]);
    }
  });

  it("describes and calls through the prefixed controls, then reads the relayed result", () => {
    const tools = controls("mcp__toolsift__");
    const id = "mcp:fixture:stdio_get_contact";
    const found = JSON.stringify([{ id, name: "stdio_get_contact", input: "unknown" }]);
    const searched = [
      call("c1", "mcp__toolsift__tool_search", { query: "stdio_get_contact" }),
      output("c1", found),
    ];
    expect(planResponse({ userText: "target=stdio_get_contact", items: searched, tools })).toEqual([
      call("call_2", "mcp__toolsift__tool_describe", { id }),
    ]);
    const described = [
      ...searched,
      call("c2", "mcp__toolsift__tool_describe", { id }),
      output(
        "c2",
        JSON.stringify({
          id,
          parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        }),
      ),
    ];
    expect(planResponse({ userText: "target=stdio_get_contact", items: described, tools })).toEqual([
      call("call_3", "mcp__toolsift__tool_call", { id, args: { id: "qa" } }),
    ]);
    // An MCP client may relay the upstream result as plain text or as an MCP tool result, not the envelope.
    for (const relayed of [
      "contact qa",
      JSON.stringify({ content: [{ type: "text", text: "contact qa" }] }),
    ]) {
      const items = [
        ...described,
        call("c3", "mcp__toolsift__tool_call", { id, args: {} }),
        output("c3", relayed),
      ];
      expect(planResponse({ userText: "target=stdio_get_contact", items, tools })).toEqual(
        say("Done. contact qa"),
      );
    }
  });

  it("reads a search output that follows a client's preamble (Codex: `Wall time: …` / `Output:`)", () => {
    const found = JSON.stringify([{ id: "mcp:f:t", name: "t", input: "{ id: string }" }]);
    const items = [
      call("c1", "mcp__toolsift__tool_search", { query: "t" }),
      output("c1", `Wall time: 0.05 seconds\nOutput:\n${found}`),
    ];
    expect(planResponse({ userText: "target=t", items, tools: controls("mcp__toolsift__") })).toEqual([
      call("call_2", "mcp__toolsift__tool_call", { id: "mcp:f:t", args: { id: "qa" } }),
    ]);
  });

  it("calls a declared target under its prefixed name", () => {
    const plan = planResponse({
      userText: "target=get_forecast",
      items: [],
      tools: [tool("mcp__weather__get_forecast")],
    });
    expect(plan).toEqual([call("call_1", "mcp__weather__get_forecast", {})]);
  });
});

describe("planResponse: cmd= fills a shell tool's command", () => {
  it("fills Claude Code's Bash `command`", () => {
    expect(
      planResponse({ userText: "Run it. target=Bash cmd=echo hi there", items: [], tools: [bash] }),
    ).toEqual([call("call_1", "Bash", { command: "echo hi there" })]);
  });

  it("fills Codex's exec_command `cmd`, quotes removed", () => {
    expect(
      planResponse({
        userText: "target=exec_command cmd=`echo 'a b'`\nthanks",
        items: [],
        tools: [execCommand],
      }),
    ).toEqual([call("call_1", "exec_command", { cmd: "echo 'a b'" })]);
  });

  it("fills the command of a shell tool reached through tool_search", () => {
    const found = JSON.stringify([{ id: "client:client:Bash", name: "Bash", input: "{ command: string }" }]);
    const items = [call("c1", "tool_search", { query: "Bash" }), output("c1", found)];
    expect(planResponse({ userText: "target=Bash cmd=echo m", items, tools: controls() })).toEqual([
      call("call_2", "tool_call", { id: "client:client:Bash", args: { command: "echo m" } }),
    ]);
  });

  it("answers with the command's output once it ran", () => {
    const items = [call("c1", "Bash", { command: "echo m" }), output("c1", "m\n")];
    expect(planResponse({ userText: "target=Bash cmd=echo m", items, tools: [bash] })).toEqual(
      say("Done. m"),
    );
  });

  it("does not read and= inside the command", () => {
    expect(planResponse({ userText: "target=Bash cmd=echo and=x", items: [], tools: [bash] })).toEqual([
      call("call_1", "Bash", { command: "echo and=x" }),
    ]);
  });
});
