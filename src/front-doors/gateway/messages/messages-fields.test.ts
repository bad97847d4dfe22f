import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "../gateway.test-support.js";

// What Anthropic clients (Claude Code 2.1 first) send on `POST /v1/messages`, accepted and read as documented
// in DESIGN.md ("Behaviour"): query strings, beta headers, the request fields the gateway ignores,
// every `tool_choice` form, `cache_control` anywhere, `defer_loading`, hosted tools and `mcp_servers` left out
// and reported, and the content blocks it keeps as text or drops. A real gateway over the FakeRunner.

const BODY = { model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "hi" }] };

/** Headers Claude Code 2.1 sends with every Messages request (from a captured request). */
const CLAUDE_CODE_HEADERS = {
  "anthropic-beta":
    "claude-code-20250219,context-1m-2025-08-07,interleaved-thinking-2025-05-14,context-management-2025-06-27,prompt-caching-scope-2026-01-05",
  "anthropic-version": "2023-06-01",
  "anthropic-dangerous-direct-browser-access": "true",
  "x-api-key": "unused-on-loopback",
  "x-app": "cli",
  "x-claude-code-session-id": "0538fb8f-d4c6-4908-b4b3-46b669abc44e",
};

describe("POST /v1/messages accepts every request field Anthropic clients send", () => {
  it.each([
    ["thinking enabled with a budget", { thinking: { type: "enabled", budget_tokens: 2048 } }],
    ["thinking adaptive", { thinking: { type: "adaptive" } }],
    ["thinking disabled", { thinking: { type: "disabled" } }],
    [
      "context_management",
      { context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] } },
    ],
    ["output_config", { output_config: { effort: "high" } }],
    ["metadata.user_id", { metadata: { user_id: '{"device_id":"d","session_id":"s"}' } }],
    ["sampling fields", { temperature: 0.2, top_p: 0.9, top_k: 40 }],
    ["stop_sequences", { stop_sequences: ["END", "STOP"] }],
    ["service_tier", { service_tier: "standard_only" }],
    ["container", { container: "container_011" }],
    ["an unknown top-level field", { future_field: { anything: [1, 2] } }],
    ["tool_choice auto", { tool_choice: { type: "auto", disable_parallel_tool_use: true } }],
    ["tool_choice any", { tool_choice: { type: "any" } }],
    ["tool_choice tool", { tool_choice: { type: "tool", name: "f" }, tools: [{ name: "f" }] }],
    ["tool_choice none", { tool_choice: { type: "none" } }],
  ])("%s: answered, the turn read as usual", async (_name, fields) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/messages?beta=true", { ...BODY, ...fields }, CLAUDE_CODE_HEADERS);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { content: unknown }).content).toEqual([
      { type: "text", text: "echo: hi" },
    ]);
    expect(test.runner.requests.at(-1)?.input).toEqual([{ type: "message", role: "user", text: "hi" }]);
  });

  it("any query string and the beta headers, through the official client's beta API", async () => {
    const test = await startTestGateway();
    const client = new Anthropic({ baseURL: test.url, apiKey: "unused", maxRetries: 0 });
    // `client.beta.messages` sends `?beta=true` and the `anthropic-beta` header, as Claude Code does.
    const message = await client.beta.messages.create({
      ...BODY,
      messages: [{ role: "user", content: "hi" }],
      betas: ["interleaved-thinking-2025-05-14", "context-management-2025-06-27"],
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    expect(message.content).toEqual([{ type: "text", text: "echo: hi" }]);
    const other = await test.post("/v1/messages?beta=true&x=1&x=2", BODY);
    expect(other.status).toBe(200);
    // The request log names the path without its query string.
    expect(test.logs.at(-1)).toMatch(/^POST \/v1\/messages 200 \d+ms$/u);
  });

  it("cache_control on every block is ignored: system, tools, text, tool_use, tool_result and its content", async () => {
    const test = await startTestGateway();
    const cache = { type: "ephemeral", ttl: "1h" };
    const response = await test.post("/v1/messages", {
      ...BODY,
      system: [
        { type: "text", text: "x-anthropic-billing-header: cc_version=2.1" },
        { type: "text", text: "Be brief.", cache_control: cache },
      ],
      tools: [
        { name: "Read", description: "Read a file.", input_schema: { type: "object" }, cache_control: cache },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "read a", cache_control: cache }] },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_1", name: "Read", input: { path: "a" }, cache_control: cache },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              cache_control: cache,
              content: [{ type: "text", text: "contents of a", cache_control: cache }],
            },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    const run = test.runner.requests.at(-1);
    expect(run?.instructions).toBe("x-anthropic-billing-header: cc_version=2.1\nBe brief.");
    expect(run?.input).toEqual([
      { type: "message", role: "user", text: "read a" },
      { type: "function_call", callId: "toolu_1", name: "Read", arguments: '{"path":"a"}' },
      { type: "function_call_output", callId: "toolu_1", output: "contents of a" },
    ]);
    expect(run?.clientTools).toEqual([
      { name: "Read", description: "Read a file.", parameters: { type: "object" } },
    ]);
  });

  it("defer_loading: true marks the client tool deferLoading; others stay unmarked", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/messages", {
      ...BODY,
      tools: [
        { name: "Read", input_schema: { type: "object" } },
        { name: "mcp__github__create_issue", input_schema: { type: "object" }, defer_loading: true },
        { name: "Write", input_schema: { type: "object" }, defer_loading: false },
      ],
    });
    expect(response.status).toBe(200);
    expect(test.runner.requests.at(-1)?.clientTools).toEqual([
      { name: "Read", description: "", parameters: { type: "object" } },
      {
        name: "mcp__github__create_issue",
        description: "",
        parameters: { type: "object" },
        deferLoading: true,
      },
      { name: "Write", description: "", parameters: { type: "object" } },
    ]);
  });
});

describe("POST /v1/messages: hosted tools and mcp_servers are left out of the run and reported", () => {
  const HOSTED = [
    { type: "web_search_20250305", name: "web_search", max_uses: 5 },
    { type: "bash_20250124", name: "bash" },
    { type: "text_editor_20250728", name: "str_replace_based_edit_tool" },
    { type: "code_execution_20250825", name: "code_execution" },
    { type: "computer_20250124", name: "computer", display_width_px: 1024, display_height_px: 768 },
    { type: "web_fetch_20250910", name: "web_fetch" },
    { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
    { type: "future_tool_20300101" },
  ];
  const MCP_SERVERS = [{ type: "url", url: "https://mcp.example/sse", name: "example" }];

  it("runs with the client tools only; the run request lists the hosted types; one log line per agent and type", async () => {
    const test = await startTestGateway();
    const body = {
      ...BODY,
      tools: [...HOSTED, { name: "Read", input_schema: { type: "object" } }],
      mcp_servers: MCP_SERVERS,
    };
    for (const model of ["toolsift", "toolsift", "toolsift/helper"]) {
      const response = await test.post("/v1/messages", { ...body, model });
      expect(response.status).toBe(200);
    }
    const run = test.runner.requests.at(-1);
    expect(run?.clientTools?.map((tool) => tool.name)).toEqual(["Read"]);
    // The tool-search tool is left out silently: toolsift's own Tool Search serves it.
    expect(run?.omittedHostedTools).toEqual([
      "web_search_20250305",
      "bash_20250124",
      "text_editor_20250728",
      "code_execution_20250825",
      "computer_20250124",
      "web_fetch_20250910",
      "future_tool_20300101",
      "mcp_server",
    ]);
    const lines = test.logs.filter((line) => line.startsWith("agent "));
    // Eight types for main (logged once though it asked twice), eight for helper.
    expect(lines).toHaveLength(16);
    expect(lines.filter((line) => line.startsWith("agent main:"))).toHaveLength(8);
    expect(lines).toContain(
      'agent main: hosted tool type "web_search_20250305" declared by a client is left out of the model\'s request: toolsift cannot run it (gateway.hostedTools: "omit"; the session log notes it on each turn that declares it)',
    );
    expect(lines.some((line) => line.includes("tool_search_tool_regex"))).toBe(false);
  });

  it("streamed alike: the run request lists the omitted tools, the log line comes once", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const body = { ...BODY, stream: true, tools: [HOSTED[0]] };
    for (let index = 0; index < 2; index += 1) {
      const response = await test.post("/v1/messages", body);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("event: message_stop");
    }
    expect(test.runner.requests.at(-1)?.omittedHostedTools).toEqual(["web_search_20250305"]);
    expect(test.logs.filter((line) => line.startsWith("agent main:"))).toHaveLength(1);
  });

  it("a request without hosted tools carries no omittedHostedTools", async () => {
    const test = await startTestGateway();
    await test.post("/v1/messages", { ...BODY, tools: [{ name: "Read" }] });
    expect(test.runner.requests.at(-1)).not.toHaveProperty("omittedHostedTools");
    expect(test.logs.some((line) => line.startsWith("agent "))).toBe(false);
  });
});

describe("POST /v1/messages: content blocks kept as text or dropped", () => {
  it("image and document blocks become placeholders (a plain-text document its text); tool_reference its meaning", async () => {
    const test = await startTestGateway();
    const png = { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" };
    const response = await test.post("/v1/messages", {
      ...BODY,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", source: png },
            {
              type: "document",
              title: "notes.txt",
              source: { type: "text", media_type: "text/plain", data: "line 1" },
            },
            { type: "document", source: { type: "content", content: [{ type: "text", text: "inline" }] } },
            {
              type: "document",
              title: "spec.pdf",
              source: { type: "base64", media_type: "application/pdf", data: "JVBE" },
            },
            { type: "tool_reference", tool_name: "mcp__github__create_issue" },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "ToolSearch", input: { query: "github" } }],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              content: [
                { type: "tool_reference", tool_name: "mcp__github__create_issue" },
                { type: "image", source: png },
              ],
            },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(test.runner.requests.at(-1)?.input)).not.toContain("iVBORw0KGgo");
    expect(test.runner.requests.at(-1)?.input).toEqual([
      {
        type: "message",
        role: "user",
        text: [
          "look",
          "[image omitted: the toolsift gateway passes text only to the model]",
          "notes.txt\nline 1",
          "inline",
          '[document "spec.pdf" omitted: the toolsift gateway passes text only to the model]',
          "Tool loaded: mcp__github__create_issue",
        ].join("\n"),
      },
      { type: "function_call", callId: "toolu_1", name: "ToolSearch", arguments: '{"query":"github"}' },
      {
        type: "function_call_output",
        callId: "toolu_1",
        output:
          "Tool loaded: mcp__github__create_issue\n[image omitted: the toolsift gateway passes text only to the model]",
      },
    ]);
  });

  it("assistant thinking, redacted_thinking and hosted tool blocks are dropped from the resent history", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/messages", {
      ...BODY,
      messages: [
        { role: "user", content: "search the web" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "let me search", signature: "EqQBCgIYAhIM" },
            { type: "redacted_thinking", data: "EmwKAhgBEgy3va" },
            { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "x" } },
            { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
            { type: "text", text: "Found nothing." },
          ],
        },
        { role: "user", content: "thanks" },
      ],
    });
    expect(response.status).toBe(200);
    expect(test.runner.requests.at(-1)?.input).toEqual([
      { type: "message", role: "user", text: "search the web" },
      { type: "message", role: "assistant", text: "Found nothing." },
      { type: "message", role: "user", text: "thanks" },
    ]);
  });
});
