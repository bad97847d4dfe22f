import { describe, expect, it } from "vitest";
import { GatewayError } from "./gateway-error.js";
import { applyHostedToolsSetting, HostedToolReporter } from "./hosted-tools.js";
import { MAX_REPORTED_HOSTED_TOOL_TYPES } from "./limits.js";
import { parseMessagesRequest } from "./messages/parse-messages-request.js";

const WEB_SEARCH = { type: "web_search_20250305", name: "web_search" };

describe("applyHostedToolsSetting: the reject switch", () => {
  it("omit leaves a hosted tool out without a word; reject refuses it with a 400 naming where it was declared", () => {
    expect(() => applyHostedToolsSetting(WEB_SEARCH, "tools[0]", "omit")).not.toThrow();
    let refused: unknown;
    try {
      applyHostedToolsSetting(WEB_SEARCH, "tools[3]", "reject");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, param: "tools[3]", apiCode: "unsupported_tool_type" });
    expect((refused as Error).message).toContain(
      'tools[3] is the hosted tool "web_search_20250305" ("web_search")',
    );
    expect((refused as Error).message).toContain('set gateway.hostedTools to "omit"');
  });

  it("the Messages parser under reject: a hosted tool or an MCP server is a 400; client and tool-search tools pass", () => {
    const body = { messages: [{ role: "user", content: "hi" }] };
    expect(() =>
      parseMessagesRequest(
        { ...body, tools: [{ name: "f" }, { type: "bash_20250124", name: "bash" }] },
        "reject",
      ),
    ).toThrow(/tools\[1\] is the hosted tool "bash_20250124"/u);
    expect(() =>
      parseMessagesRequest(
        { ...body, mcp_servers: [{ type: "url", url: "https://x", name: "x" }] },
        "reject",
      ),
    ).toThrow(/mcp_servers\[0\] is the hosted tool "mcp_server" \("x"\)/u);
    const accepted = parseMessagesRequest(
      { ...body, tools: [{ name: "f" }, { type: "tool_search_tool_regex_20251119", name: "ts" }] },
      "reject",
    );
    expect(accepted.clientTools.map((tool) => tool.name)).toEqual(["f"]);
    expect(accepted).not.toHaveProperty("omittedHostedTools");
  });

  it("the Messages parser under omit (the default) lists each hosted type once, in declaration order", () => {
    const parsed = parseMessagesRequest({
      messages: [{ role: "user", content: "hi" }],
      tools: [
        { type: "web_search_20250305", name: "web_search" },
        { type: "web_search_20250305", name: "web_search_2" },
        { type: "bash_20250124", name: "bash" },
      ],
      mcp_servers: [
        { type: "url", url: "https://a" },
        { type: "url", url: "https://b" },
      ],
    });
    expect(parsed.omittedHostedTools).toEqual(["web_search_20250305", "bash_20250124", "mcp_server"]);
  });
});

describe("HostedToolReporter", () => {
  it("logs each type once per agent, and its memory stays bounded", () => {
    const lines: string[] = [];
    const reporter = new HostedToolReporter((line) => lines.push(line));
    reporter.report("main", [WEB_SEARCH.type, WEB_SEARCH.type]);
    reporter.report("main", [WEB_SEARCH.type]);
    reporter.report("other", [WEB_SEARCH.type]);
    reporter.report("main", undefined);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^agent other: /u);
    // A client inventing types: past its bound the memory forgets the oldest pairs, so it cannot grow without
    // end (web_search, logged first, is logged again).
    const invented = Array.from(
      { length: MAX_REPORTED_HOSTED_TOOL_TYPES + 5 },
      (_, index) => `invented_${index}`,
    );
    reporter.report("main", invented);
    expect(lines).toHaveLength(2 + invented.length);
    reporter.report("main", [WEB_SEARCH.type]);
    expect(lines).toHaveLength(2 + invented.length + 1);
  });

  it("quotes a client's type, so control characters cannot forge log lines", () => {
    const lines: string[] = [];
    new HostedToolReporter((line) => lines.push(line)).report("main", ["evil\nPOST /v1/responses 200 1ms"]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\n\r]/u);
    expect(lines[0]).toContain('"evil\\nPOST /v1/responses 200 1ms"');
  });
});
