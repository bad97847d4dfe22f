import { describe, expect, it } from "vitest";
import { GatewayError } from "./gateway-error.js";
import { applyHostedToolsSetting, HostedToolReporter, type OmittedTool } from "./hosted-tools.js";
import { MAX_REPORTED_HOSTED_TOOL_TYPES } from "./limits.js";
import { parseMessagesRequest } from "./parse-messages-request.js";

const WEB_SEARCH: OmittedTool = { type: "web_search_20250305", name: "web_search", kind: "hosted" };
const TOOL_SEARCH: OmittedTool = { type: "tool_search_tool_bm25_20251119", name: "ts", kind: "tool-search" };

describe("applyHostedToolsSetting: the reject switch", () => {
  it("omit leaves every tool out without a word; reject refuses a hosted tool with a 400 naming it", () => {
    expect(() => applyHostedToolsSetting(WEB_SEARCH, "tools[0]", "omit")).not.toThrow();
    let refused: unknown;
    try {
      applyHostedToolsSetting(WEB_SEARCH, "tools[3]", "reject");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, param: "tools[3]", apiCode: "unsupported_tool_type" });
    expect((refused as Error).message).toContain('tools[3] is the hosted tool "web_search_20250305"');
    expect((refused as Error).message).toContain('set gateway.hostedTools to "omit"');
  });

  it("reject never refuses a tool-search tool: toolsift's Tool Search does its job", () => {
    expect(() => applyHostedToolsSetting(TOOL_SEARCH, "tools[0]", "reject")).not.toThrow();
  });

  it("the Messages parser under reject: a hosted tool or an MCP server is a 400, client tools pass", () => {
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
    ).toThrow(/mcp_servers\[0\] is the hosted tool "mcp_server"/u);
    const accepted = parseMessagesRequest(
      { ...body, tools: [{ name: "f" }, { type: "tool_search_tool_regex_20251119", name: "ts" }] },
      "reject",
    );
    expect(accepted.clientTools.map((tool) => tool.name)).toEqual(["f"]);
    expect(accepted.omittedTools).toEqual([
      { type: "tool_search_tool_regex_20251119", name: "ts", kind: "tool-search" },
    ]);
  });
});

describe("HostedToolReporter", () => {
  it("logs each type once per agent, and its memory stays bounded", () => {
    const lines: string[] = [];
    const reporter = new HostedToolReporter((line) => lines.push(line));
    reporter.report("main", [WEB_SEARCH, WEB_SEARCH]);
    reporter.report("main", [WEB_SEARCH]);
    reporter.report("other", [WEB_SEARCH]);
    reporter.report("main", undefined);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^agent other: /u);
    // A client inventing types: the memory starts over past its bound, so it cannot grow without end.
    const invented = Array.from({ length: MAX_REPORTED_HOSTED_TOOL_TYPES + 5 }, (_, index) => ({
      ...WEB_SEARCH,
      type: `invented_${index}`,
    }));
    reporter.report("main", invented);
    expect(lines).toHaveLength(2 + invented.length);
    reporter.report("main", [WEB_SEARCH]);
    expect(lines).toHaveLength(2 + invented.length + 1);
  });

  it("quotes a client's type and name, so control characters cannot forge log lines", () => {
    const lines: string[] = [];
    new HostedToolReporter((line) => lines.push(line)).report("main", [
      { type: "evil\nPOST /v1/responses 200 1ms", name: "x\r", kind: "hosted" },
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\n\r]/u);
    expect(lines[0]).toContain('"evil\\nPOST /v1/responses 200 1ms"');
  });
});
