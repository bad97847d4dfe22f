import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { applyConfigEdit } from "./apply-config-edit.js";
import { type ConfigEdit, editConfigText } from "./edit-config-text.js";

const lines = (...parts: string[]) => `${parts.join("\n")}\n`;

describe("editConfigText", () => {
  it("migrates the spec's one-line example, touching nothing else", () => {
    const text = lines(
      "// toolsift config",
      "{",
      "  tools: {",
      "    // Tool Search",
      '    toolSearch: { enabled: false, mode: "code", codeTimeoutMs: 2500, searchDefaultLimit: 4, maxSearchLimit: 12 },',
      '    deny: ["exec"], // never',
      "  },",
      "}",
    );
    const edited = editConfigText(text, [
      { op: "set", path: ["tools", "toolSearch", "mode"], value: "tools" },
      { op: "unset", path: ["tools", "toolSearch", "codeTimeoutMs"] },
    ]);
    expect(edited).toBe(
      text.replace(
        '{ enabled: false, mode: "code", codeTimeoutMs: 2500, searchDefaultLimit: 4, maxSearchLimit: 12 }',
        '{ enabled: false, mode: "tools", searchDefaultLimit: 4, maxSearchLimit: 12 }',
      ),
    );
  });

  it("edits a multi-line object line by line, a removed key's trailing comment going with it", () => {
    const text = lines(
      "{",
      "  tools: {",
      "    toolSearch: {",
      "      enabled: false, // off for now",
      "      mode: 'code', /* old */",
      "      codeTimeoutMs: 2500, // the old bridge",
      "      searchDefaultLimit: 4,",
      "    },",
      "  },",
      "}",
    );
    const edited = editConfigText(text, [
      { op: "set", path: ["tools", "toolSearch", "mode"], value: "tools" },
      { op: "unset", path: ["tools", "toolSearch", "codeTimeoutMs"] },
    ]);
    expect(edited).toBe(
      lines(
        "{",
        "  tools: {",
        "    toolSearch: {",
        "      enabled: false, // off for now",
        "      mode: 'tools', /* old */",
        "      searchDefaultLimit: 4,",
        "    },",
        "  },",
        "}",
      ),
    );
  });

  it("adds a key before the closing brace with the siblings' indentation and comma habit", () => {
    const withCommas = lines("{", "    a: 1,", "    // last words", "}");
    expect(editConfigText(withCommas, [{ op: "set", path: ["b"], value: [1, 2] }])).toBe(
      lines("{", "    a: 1,", "    // last words", "    b: [1, 2],", "}"),
    );
    const jsonStyle = lines("{", '  "a": 1', "}");
    expect(editConfigText(jsonStyle, [{ op: "set", path: ["b"], value: { c: true } }])).toBe(
      lines("{", '  "a": 1,', '  "b": { "c": true }', "}"),
    );
  });

  it("adds to one-line objects and arrays on the same line", () => {
    expect(editConfigText("{ a: 1 }", [{ op: "set", path: ["b"], value: "x" }])).toBe('{ a: 1, b: "x" }');
    expect(editConfigText("{ a: 1, }", [{ op: "set", path: ["b"], value: "x" }])).toBe('{ a: 1, b: "x", }');
    expect(editConfigText("{ a: [1] }", [{ op: "set", path: ["a", 1], value: 2 }])).toBe("{ a: [1, 2] }");
  });

  it("creates missing parents, and opens empty objects onto their own lines", () => {
    expect(editConfigText("{}\n", [{ op: "set", path: ["tools", "toolSearch"], value: true }])).toBe(
      lines("{", "  tools: { toolSearch: true },", "}"),
    );
    const text = lines("{", "  plugins: {", "    entries: {},", "  },", "}");
    expect(
      editConfigText(text, [{ op: "set", path: ["plugins", "entries", "weather", "config"], value: {} }]),
    ).toBe(
      lines("{", "  plugins: {", "    entries: {", "      weather: { config: {} },", "    },", "  },", "}"),
    );
    expect(editConfigText("{ list: [] }", [{ op: "set", path: ["list", 0, "id"], value: "main" }])).toBe(
      lines("{ list: [", '  { id: "main" },', "] }").trimEnd(),
    );
  });

  it("replaces a value in place, a one-line value staying on one line and a block staying a block", () => {
    const text = lines(
      "{",
      "  toolSearch: true, // explicit",
      "  agents: {",
      "    defaults: { model: 'openai/x' },",
      "  },",
      "}",
    );
    expect(editConfigText(text, [{ op: "set", path: ["toolSearch"], value: { mode: "directory" } }])).toBe(
      text.replace("toolSearch: true,", 'toolSearch: { mode: "directory" },'),
    );
    expect(
      editConfigText(text, [
        { op: "set", path: ["agents"], value: { list: [{ id: "main" }, { id: "ops" }] } },
      ]),
    ).toBe(
      lines(
        "{",
        "  toolSearch: true, // explicit",
        "  agents: {",
        "    list: [",
        '      { id: "main" },',
        '      { id: "ops" },',
        "    ],",
        "  },",
        "}",
      ),
    );
    expect(
      editConfigText(text, [{ op: "set", path: ["agents", "defaults", "model"], value: "ollama/q" }]),
    ).toBe(text.replace("'openai/x'", "'ollama/q'"));
  });

  it("removes keys and array elements with their commas, keeping the file's comma habit", () => {
    const noTrailing = lines("{", "  a: 1,", "  b: 2", "}");
    expect(editConfigText(noTrailing, [{ op: "unset", path: ["b"] }])).toBe(lines("{", "  a: 1", "}"));
    expect(editConfigText("{ a: 1, b: 2 }", [{ op: "unset", path: ["a"] }])).toBe("{ b: 2 }");
    expect(editConfigText("{ a: 1, b: 2 }", [{ op: "unset", path: ["b"] }])).toBe("{ a: 1 }");
    expect(editConfigText("{ a: 1, b: 2, }", [{ op: "unset", path: ["b"] }])).toBe("{ a: 1, }");
    expect(editConfigText("{ d: ['x', 'y', 'z'] }", [{ op: "unset", path: ["d", 1] }])).toBe(
      "{ d: ['x', 'z'] }",
    );
  });

  it("collapses an object that becomes empty, unless comments remain in it", () => {
    const text = lines("{", "  tools: {", "    deny: [],", "  },", "  keep: 1,", "}");
    expect(editConfigText(text, [{ op: "unset", path: ["tools", "deny"] }])).toBe(
      lines("{", "  tools: {},", "  keep: 1,", "}"),
    );
    expect(editConfigText("{ a: { b: 1 } }", [{ op: "unset", path: ["a", "b"] }])).toBe("{ a: {} }");
    const commented = lines("{", "  tools: {", "    // nothing denied yet", "    deny: [],", "  },", "}");
    expect(editConfigText(commented, [{ op: "unset", path: ["tools", "deny"] }])).toBe(
      lines("{", "  tools: {", "    // nothing denied yet", "  },", "}"),
    );
  });

  it("removes every copy of a duplicated key, and sets the copy JSON5 reads (the last)", () => {
    expect(editConfigText("{ a: 1, b: 2, a: 3 }", [{ op: "unset", path: ["a"] }])).toBe("{ b: 2 }");
    expect(editConfigText("{ a: 1, a: 3 }", [{ op: "set", path: ["a"], value: 4 }])).toBe("{ a: 1, a: 4 }");
  });

  it("keeps CRLF line breaks and tab indentation", () => {
    const text = "{\r\n\ttools: {\r\n\t\tdeny: ['exec'],\r\n\t},\r\n}\r\n";
    expect(editConfigText(text, [{ op: "set", path: ["tools", "allow"], value: ["read"] }])).toBe(
      "{\r\n\ttools: {\r\n\t\tdeny: ['exec'],\r\n\t\tallow: [\"read\"],\r\n\t},\r\n}\r\n",
    );
    expect(editConfigText(text, [{ op: "set", path: ["gateway"], value: { port: 1 } }])).toBe(
      "{\r\n\ttools: {\r\n\t\tdeny: ['exec'],\r\n\t},\r\n\tgateway: { port: 1 },\r\n}\r\n",
    );
  });

  it("keeps a comment above a removed key (it may describe more than the key)", () => {
    const text = lines("{", "  // search settings", "  toolSearch: true,", "  other: 1,", "}");
    expect(editConfigText(text, [{ op: "unset", path: ["toolSearch"] }])).toBe(
      lines("{", "  // search settings", "  other: 1,", "}"),
    );
  });

  it("always produces text that parses to what applyConfigEdit computes", () => {
    const text = lines(
      "/* sample */ {",
      "  models: { providers: { ollama: { api: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1' } } },",
      "  agents: {",
      "    defaults: { model: 'openai/gpt-5.4-mini' },",
      "    list: [",
      "      { id: 'main', tools: { allow: ['group:fs'], deny: ['exec'] } }, // first",
      "      { id: 'ops' }",
      "    ]",
      "  },",
      '  "tools": { toolSearch: { mode: "tools", searchDefaultLimit: 8 }, approval: { require: ["exec"] } },',
      "  mcp: { servers: { calendar: { command: 'node', args: ['calendar-server.js'] } } }",
      "}",
    );
    const edits: ConfigEdit[] = [
      { op: "set", path: ["agents", "list", 1, "model"], value: "ollama/qwen3" },
      { op: "set", path: ["agents", "list", 2], value: { id: "new" } },
      { op: "unset", path: ["agents", "list", 0] },
      { op: "unset", path: ["agents", "list", 1] },
      { op: "set", path: ["agents", "list", 0, "tools", "deny", 1], value: "write" },
      { op: "unset", path: ["agents", "list", 0, "tools"] },
      { op: "set", path: ["tools", "toolSearch"], value: false },
      { op: "unset", path: ["tools", "toolSearch", "searchDefaultLimit"] },
      { op: "set", path: ["mcp", "servers", "my server"], value: { url: "http://127.0.0.1:8080/mcp" } },
      { op: "unset", path: ["mcp"] },
      { op: "unset", path: ["models", "providers", "ollama", "baseUrl"] },
      { op: "set", path: ["codeMode", "enabled"], value: true },
      { op: "set", path: ["agents", "defaults"], value: {} },
    ];
    for (const edit of edits) {
      const expected = applyConfigEdit(JSON5.parse(text), edit);
      expect(JSON5.parse(editConfigText(text, [edit])), JSON.stringify(edit)).toEqual(expected);
    }
  });
});
