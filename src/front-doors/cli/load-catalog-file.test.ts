import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { loadCatalogFile, parseCatalogFile } from "./load-catalog-file.js";

const weatherSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

/** The data fields of a loaded tool (everything but `execute`). */
function fields(tool: ToolDefinition): Omit<ToolDefinition, "execute"> {
  const { execute: _execute, ...rest } = tool;
  return rest;
}

function parseError(text: string, fileName = "tools.json"): string {
  try {
    parseCatalogFile(text, fileName);
  } catch (error) {
    if (isToolsiftError(error) && error.code === "CONFIG_INVALID") return error.message;
    throw error;
  }
  throw new Error("expected a CONFIG_INVALID error");
}

describe("parseCatalogFile: formats", () => {
  it("reads a JSON array of plain definitions with origin, label and output schema", () => {
    const tools = parseCatalogFile(
      JSON.stringify([
        {
          name: "get_forecast",
          label: "Forecast",
          description: "Weather forecast",
          parameters: weatherSchema,
          outputSchema: { type: "object" },
          origin: { kind: "plugin", owner: "weather" },
        },
        { name: "bare" },
      ]),
      "tools.json",
    );
    expect(tools.map(fields)).toEqual([
      {
        name: "get_forecast",
        label: "Forecast",
        description: "Weather forecast",
        parameters: weatherSchema,
        outputSchema: { type: "object" },
        origin: { kind: "plugin", owner: "weather" },
      },
      { name: "bare" },
    ]);
  });

  it("reads JSON lines, skipping blank lines and tolerating CRLF", () => {
    const text = [
      JSON.stringify({ name: "a", description: "first", parameters: weatherSchema }),
      "",
      JSON.stringify({ name: "b", origin: { kind: "client" } }),
      "",
    ].join("\r\n");
    expect(parseCatalogFile(text, "tools.jsonl").map(fields)).toEqual([
      { name: "a", description: "first", parameters: weatherSchema },
      { name: "b", origin: { kind: "client" } },
    ]);
  });

  it("reads a JSON lines file of a single line", () => {
    expect(parseCatalogFile('{"name":"only"}\n', "one.jsonl").map(fields)).toEqual([{ name: "only" }]);
  });

  it("reads an OpenAI chat tools array", () => {
    const text = JSON.stringify([
      {
        type: "function",
        function: { name: "get_forecast", description: "Forecast", parameters: weatherSchema },
      },
    ]);
    expect(parseCatalogFile(text, "openai.json").map(fields)).toEqual([
      { name: "get_forecast", description: "Forecast", parameters: weatherSchema },
    ]);
  });

  it("reads the OpenAI Responses flat form, also inside a request body", () => {
    const text = JSON.stringify({
      model: "gpt-5",
      tools: [
        {
          type: "function",
          name: "get_forecast",
          description: "Forecast",
          parameters: weatherSchema,
          strict: true,
        },
      ],
    });
    expect(parseCatalogFile(text, "request.json").map(fields)).toEqual([
      { name: "get_forecast", description: "Forecast", parameters: weatherSchema },
    ]);
  });

  it("reads an MCP tools/list result: inputSchema becomes parameters, owner is the file's base name", () => {
    const text = JSON.stringify({
      tools: [
        {
          name: "create_event",
          title: "Create event",
          description: "Create a calendar event",
          inputSchema: weatherSchema,
          annotations: { readOnlyHint: false },
        },
      ],
      nextCursor: "abc",
    });
    expect(parseCatalogFile(text, "servers/calendar.json").map(fields)).toEqual([
      {
        name: "create_event",
        label: "Create event",
        description: "Create a calendar event",
        parameters: weatherSchema,
        origin: { kind: "mcp", owner: "calendar" },
      },
    ]);
  });

  it("reads an MCP tools/list JSON-RPC response", () => {
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [{ name: "x", inputSchema: {} }] },
    });
    expect(parseCatalogFile(text, "github-tools.json").map(fields)).toEqual([
      { name: "x", parameters: {}, origin: { kind: "mcp", owner: "github-tools" } },
    ]);
  });

  it.each([
    ["calendar.json", "calendar"],
    ["dir/my tools!.json", "my_tools"],
    ["x.y.jsonl", "x.y"],
    ["???.json", "mcp"],
    ["noextension", "noextension"],
  ])("MCP owner for %s is %s", (fileName, owner) => {
    const [tool] = parseCatalogFile('[{"name":"t","inputSchema":{}}]', fileName);
    expect(tool?.origin).toEqual({ kind: "mcp", owner });
  });

  it("lets items of different forms mix, and an explicit origin wins over the MCP default", () => {
    const text = JSON.stringify([
      { name: "plain" },
      { type: "function", function: { name: "chat" } },
      { type: "function", name: "flat" },
      { name: "mcp_tool", inputSchema: {} },
      { name: "owned", inputSchema: {}, origin: { kind: "mcp", owner: "drive" } },
    ]);
    expect(parseCatalogFile(text, "mixed.json").map((tool) => [tool.name, tool.origin])).toEqual([
      ["plain", undefined],
      ["chat", undefined],
      ["flat", undefined],
      ["mcp_tool", { kind: "mcp", owner: "mixed" }],
      ["owned", { kind: "mcp", owner: "drive" }],
    ]);
  });

  it("accepts a byte order mark, null optional fields and boolean schemas, and an empty array", () => {
    expect(
      parseCatalogFile('\uFEFF[{"name":"a","description":null,"parameters":true}]', "t.json").map(fields),
    ).toEqual([{ name: "a", parameters: true }]);
    expect(parseCatalogFile("[]", "t.json")).toEqual([]);
  });

  it("loaded tools only describe: execute returns an error result saying so", async () => {
    const [tool] = parseCatalogFile('[{"name":"send_email"}]', "examples/catalog.json");
    const result = await tool?.execute({}, {});
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: "send_email is only a catalog entry loaded from examples/catalog.json; it has no implementation to run.",
        },
      ],
      isError: true,
    });
  });

  it("__proto__ keys stay data and pollute nothing", () => {
    const text = '[{"name":"x","__proto__":{"polluted":true},"parameters":{"__proto__":{"type":"string"}}}]';
    const [tool] = parseCatalogFile(text, "t.json");
    expect(tool?.name).toBe("x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(tool?.parameters as object)).toEqual(["__proto__"]);
  });
});

describe("parseCatalogFile: bad input", () => {
  it.each([
    [
      "",
      "tools.json: the file is empty; expected a JSON array of tools, JSON lines of tools, an OpenAI tools array or an MCP tools/list result",
    ],
    [
      "  \n\n",
      "tools.json: the file is empty; expected a JSON array of tools, JSON lines of tools, an OpenAI tools array or an MCP tools/list result",
    ],
    ['[\n  {"name": "a"},\n]', 'tools.json:3: invalid JSON: expected a value, found "]"'],
    [
      '{\n  "tools": [\n    {"name": "a"}\n  ]\n  "x": 1\n}',
      'tools.json:5: invalid JSON: expected "," or "}", found "\\""',
    ],
    ['{"name": }', 'tools.json:1: invalid JSON: expected a value, found "}"'],
    [
      '{"name":"a"}\n{"name":"b"}\n{"name": "c",}\n',
      'tools.json:3: invalid JSON line: expected a property name in double quotes, found "}"',
    ],
    ['{"name":"a"}\n[1]\n', "tools.json:2: expected a tool object, found an array"],
    ['[\n  {"name": "a"},\n  42\n]', "tools.json:3: expected a tool object, found 42"],
    ['[{"description": "no name"}]', 'tools.json:1: a tool needs a non-empty string "name"'],
    ['[{"name": ""}]', 'tools.json:1: a tool needs a non-empty string "name", found ""'],
    ['[{"name": 5}]', 'tools.json:1: a tool needs a non-empty string "name", found 5'],
    ['[{"name": "a", "description": 5}]', 'tools.json:1: tool "a": "description" must be a string'],
    ['[{"name": "a", "label": []}]', 'tools.json:1: tool "a": "label" must be a string'],
    [
      '[{"name": "a", "parameters": "object"}]',
      'tools.json:1: tool "a": "parameters" must be a JSON Schema object',
    ],
    [
      '[{"name": "a", "parameters": [1]}]',
      'tools.json:1: tool "a": "parameters" must be a JSON Schema object',
    ],
    [
      '{"tools": [{"name": "a", "inputSchema": 3}]}',
      'tools.json:1: tool "a": "inputSchema" must be a JSON Schema object',
    ],
    [
      '{"tools": [{"name": "a", "title": 3, "inputSchema": {}}]}',
      'tools.json:1: tool "a": "title" must be a string',
    ],
    [
      '[{"name": "a", "outputSchema": 1}]',
      'tools.json:1: tool "a": "outputSchema" must be a JSON Schema object',
    ],
    [
      '[{"name": "a", "origin": "weather"}]',
      'tools.json:1: "origin" must be an object like { "kind": "plugin", "owner": "weather" }',
    ],
    [
      '[{"name": "a", "origin": {"kind": "server"}}]',
      'tools.json:1: "origin.kind" must be "core", "plugin", "mcp" or "client", found "server"',
    ],
    [
      '[{"name": "a", "origin": {"kind": "plugin", "owner": 1}}]',
      'tools.json:1: "origin.owner" must be a non-empty string, found 1',
    ],
    [
      '[{"type": "web_search_preview"}]',
      'tools.json:1: unsupported tool type "web_search_preview": only function tools can be searched',
    ],
    ['[{"type": "function", "function": "get"}]', 'tools.json:1: "function" must be an object'],
    ['[{"type": "function", "function": {}}]', 'tools.json:1: a tool needs a non-empty string "name"'],
    [
      '[{"name": "tool_search"}]',
      'tools.json:1: tool "tool_search": the name is reserved for a Tool Search control',
    ],
    ['{\n  "tools": {}\n}', 'tools.json:2: "tools" must be an array'],
    [
      "42",
      "tools.json:1: expected a JSON array of tools, JSON lines of tools, an OpenAI tools array or an MCP tools/list result",
    ],
    [
      '{"servers": []}',
      "tools.json:1: expected a JSON array of tools, JSON lines of tools, an OpenAI tools array or an MCP tools/list result",
    ],
  ])("%j → %s", (text, message) => {
    expect(parseError(text)).toBe(message);
  });

  it("points at the line where the bad item starts in a pretty-printed file", () => {
    const text = JSON.stringify(
      { tools: [{ name: "a", inputSchema: {} }, { name: "b", inputSchema: {} }, { inputSchema: {} }] },
      null,
      2,
    );
    const line =
      text
        .split("\n")
        .findIndex((row, index, rows) => row.trim() === "{" && rows[index + 1]?.includes('"inputSchema"')) +
      1;
    expect(line).toBeGreaterThan(1);
    expect(parseError(text, "calendar.json")).toBe(
      `calendar.json:${line}: a tool needs a non-empty string "name"`,
    );
  });

  it("cuts huge values in messages", () => {
    const message = parseError(JSON.stringify([{ type: "y".repeat(50_000) }]));
    expect(message).toBe(
      `tools.json:1: unsupported tool type "${"y".repeat(36)}...: only function tools can be searched`,
    );
  });
});

describe("loadCatalogFile", () => {
  let directory = "";
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "toolsift-catalog-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("reads a real file", async () => {
    const path = join(directory, "weather.json");
    await writeFile(path, JSON.stringify({ tools: [{ name: "get_forecast", inputSchema: weatherSchema }] }));
    const tools = await loadCatalogFile(path);
    expect(tools.map(fields)).toEqual([
      { name: "get_forecast", parameters: weatherSchema, origin: { kind: "mcp", owner: "weather" } },
    ]);
  });

  it("a missing file is a CONFIG_INVALID error naming the file", async () => {
    const path = join(directory, "missing.json");
    await expect(loadCatalogFile(path)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: `${path}: cannot read the file (no such file)`,
    });
  });

  it("a directory is refused", async () => {
    await expect(loadCatalogFile(directory)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: `${directory}: is a directory, not a catalog file`,
    });
  });

  it("parse errors name the path as given", async () => {
    const path = join(directory, "bad.json");
    await writeFile(path, '[\n  {"name": 1}\n]\n');
    await expect(loadCatalogFile(path)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: `${path}:2: a tool needs a non-empty string "name", found 1`,
    });
  });
});
