import { describe, expect, it } from "vitest";
import { GatewayError } from "../gateway-error.js";
import { customToolInput, modelToolName } from "../request/client-call-form.js";
import { parseResponsesTools } from "./parse-responses-tools.js";

const NO_PARAMETERS = { type: "object", properties: {} };

/** The 400's param and message of a refused `tools` value. */
function refusal(
  tools: unknown,
  hostedTools: "omit" | "reject" = "omit",
): { param: unknown; message: string } {
  try {
    parseResponsesTools(tools, hostedTools);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect(gatewayError.status).toBe(400);
    return { param: gatewayError.param, message: gatewayError.message };
  }
  throw new Error("expected a 400");
}

describe("parseResponsesTools", () => {
  it("reads function tools with strict and defer_loading, and the Chat form", () => {
    const read = parseResponsesTools([
      {
        type: "function",
        name: "exec_command",
        description: "Run.",
        strict: false,
        parameters: NO_PARAMETERS,
      },
      { type: "function", name: "lookup", defer_loading: true },
      { type: "function", function: { name: "chat_form", description: "Chat." } },
    ]);
    expect(read.clientTools).toEqual([
      { name: "exec_command", description: "Run.", parameters: NO_PARAMETERS },
      { name: "lookup", description: "", parameters: NO_PARAMETERS, deferLoading: true },
      { name: "chat_form", description: "Chat.", parameters: NO_PARAMETERS },
    ]);
    expect(read.callForms.size).toBe(0);
    expect(read.omittedHostedTools).toEqual([]);
  });

  it("gives a namespace's tools joined model names, the namespace as owner, and their declared call form", () => {
    const read = parseResponsesTools([
      {
        type: "namespace",
        name: "multi_agent_v1",
        description: "Sub-agents.",
        tools: [
          { type: "function", name: "spawn_agent", description: "Spawn one.", strict: false },
          { type: "function", name: "wait_agent", defer_loading: true },
          { type: "custom", name: "script" },
        ],
      },
    ]);
    expect(read.clientTools.map((tool) => [tool.name, tool.owner, tool.deferLoading])).toEqual([
      ["multi_agent_v1__spawn_agent", "multi_agent_v1", undefined],
      ["multi_agent_v1__wait_agent", "multi_agent_v1", true],
      ["multi_agent_v1__script", "multi_agent_v1", undefined],
    ]);
    expect(read.clientTools[0]?.description).toBe("Spawn one.\n\n(In multi_agent_v1: Sub-agents.)");
    expect(read.callForms.get("multi_agent_v1__spawn_agent")).toEqual({
      kind: "function",
      name: "spawn_agent",
      namespace: "multi_agent_v1",
    });
    expect(read.callForms.get("multi_agent_v1__script")).toEqual({
      kind: "custom",
      name: "script",
      namespace: "multi_agent_v1",
    });
  });

  it("offers a custom tool as a function of one string, its grammar in the description", () => {
    const read = parseResponsesTools([
      {
        type: "custom",
        name: "apply_patch",
        description: "Patch files.",
        format: { type: "grammar", syntax: "lark", definition: 'start: "*** Begin Patch"' },
      },
    ]);
    const [tool] = read.clientTools;
    expect(tool?.name).toBe("apply_patch");
    expect(tool?.description).toBe(
      'Patch files.\n\nThe input must follow this lark grammar:\nstart: "*** Begin Patch"',
    );
    expect(tool?.parameters).toMatchObject({ type: "object", required: ["input"] });
    expect(read.callForms.get("apply_patch")).toEqual({ kind: "custom", name: "apply_patch" });
  });

  it("leaves hosted and unknown tool types out and lists each once; tool_search is served, not listed", () => {
    const read = parseResponsesTools([
      { type: "web_search", external_web_access: false },
      { type: "function", name: "f" },
      { type: "web_search" },
      { type: "file_search", vector_store_ids: [] },
      { type: "tool_search" },
      { type: "mcp", server_label: "x" },
      { type: "something_new" },
    ]);
    expect(read.clientTools.map((tool) => tool.name)).toEqual(["f"]);
    expect(read.omittedHostedTools).toEqual(["web_search", "file_search", "mcp", "something_new"]);
  });

  it("refuses a hosted tool under hostedTools reject, naming the tool and the setting", () => {
    const { param, message } = refusal(
      [{ type: "function", name: "f" }, { type: "code_interpreter" }],
      "reject",
    );
    expect(param).toBe("tools[1].type");
    expect(message).toContain('"code_interpreter"');
    expect(message).toContain("gateway.hostedTools");
    // tool_search is toolsift's own: never refused.
    expect(parseResponsesTools([{ type: "tool_search" }], "reject").omittedHostedTools).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ["not an array", { type: "function" }, "tools"],
    ["a tool that is not an object", [3], "tools[0]"],
    ["a tool without a type", [{ name: "f" }], "tools[0].type"],
    ["a tool type that cannot be one", [{ type: "web search!" }], "tools[0].type"],
    ["a tool type over 64 characters", [{ type: "w".repeat(65) }], "tools[0].type"],
    [
      "more than 512 entries, hosted ones too",
      Array.from({ length: 513 }, () => ({ type: "web_search" })),
      "tools",
    ],
    [
      "more than 512 client tools through namespaces",
      Array.from({ length: 2 }, (_, index) => ({
        type: "namespace",
        name: `n${index}`,
        tools: Array.from({ length: 300 }, (_unused, member) => ({ type: "function", name: `f${member}` })),
      })),
      "tools",
    ],
    ["a function with a bad name", [{ type: "function", name: "a b" }], "tools[0].name"],
    ["strict that is not a boolean", [{ type: "function", name: "f", strict: "no" }], "tools[0].strict"],
    [
      "defer_loading that is not a boolean",
      [{ type: "function", name: "f", defer_loading: 1 }],
      "tools[0].defer_loading",
    ],
    ["a custom tool without a name", [{ type: "custom" }], "tools[0].name"],
    [
      "a custom format that is not an object",
      [{ type: "custom", name: "c", format: "x" }],
      "tools[0].format",
    ],
    ["a namespace without a name", [{ type: "namespace", tools: [] }], "tools[0].name"],
    ["a namespace without tools", [{ type: "namespace", name: "n" }], "tools[0].tools"],
    [
      "a hosted tool inside a namespace",
      [{ type: "namespace", name: "n", tools: [{ type: "web_search" }] }],
      "tools[0].tools[0].type",
    ],
    [
      "a namespaced name that clashes with a function",
      [
        { type: "function", name: "n__f" },
        { type: "namespace", name: "n", tools: [{ type: "function", name: "f" }] },
      ],
      "tools[1].tools[0].name",
    ],
  ])("refuses %s with a 400 naming the param", (_name, tools, param) => {
    expect(refusal(tools).param).toBe(param);
  });
});

describe("modelToolName", () => {
  it("joins namespace and name, and keeps a long or unusual pair valid, stable and distinct", () => {
    expect(modelToolName(undefined, "f")).toBe("f");
    expect(modelToolName("crm", "list_orders")).toBe("crm__list_orders");
    const long = modelToolName(
      "mcp__a_very_long_server_name_that_goes_on_and_on",
      "and_a_long_tool_name_too",
    );
    expect(long).toMatch(/^[A-Za-z0-9_-]{1,64}$/u);
    expect(
      modelToolName("mcp__a_very_long_server_name_that_goes_on_and_on", "and_a_long_tool_name_too"),
    ).toBe(long);
    expect(
      modelToolName("mcp__a_very_long_server_name_that_goes_on_and_on", "and_a_long_tool_name_toO"),
    ).not.toBe(long);
    expect(modelToolName("my.server", "f")).toMatch(/^my_server__f_[0-9a-f]{8}$/u);
  });
});

describe("customToolInput", () => {
  it("takes the string input, else the model's text as it is", () => {
    expect(customToolInput('{"input":"*** Begin Patch"}')).toBe("*** Begin Patch");
    expect(customToolInput('{"other":1}')).toBe('{"other":1}');
    expect(customToolInput("not json")).toBe("not json");
  });
});
