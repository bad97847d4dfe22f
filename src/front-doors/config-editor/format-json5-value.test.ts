import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { formatJson5Key, formatJson5Value } from "./format-json5-value.js";

describe("formatJson5Value", () => {
  it.each([
    [true, "true"],
    [null, "null"],
    [12, "12"],
    [-0, "-0"],
    [Number.NaN, "NaN"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    ["openai/gpt-5.4-mini", '"openai/gpt-5.4-mini"'],
    ['say "hi"\n', '"say \\"hi\\"\\n"'],
    [[], "[]"],
    [{}, "{}"],
    [["a", 1], '["a", 1]'],
    [{ mode: "tools", "my key": 1 }, '{ mode: "tools", "my key": 1 }'],
  ])("formats %j as %s, which parses back", (value, text) => {
    const formatted = formatJson5Value(value);
    expect(formatted).toBe(text);
    expect(JSON5.parse(formatted)).toEqual(value);
  });

  it("breaks a value that does not fit into one entry per line, keeping short scalar arrays on one line", () => {
    const value = {
      servers: { calendar: { command: "node", args: ["calendar-server.js", "--verbose"] } },
      description: "x".repeat(90),
    };
    const text = formatJson5Value(value, { indent: "  ", unit: "  " });
    expect(text).toBe(
      [
        "{",
        "    servers: {",
        "      calendar: {",
        '        command: "node",',
        '        args: ["calendar-server.js", "--verbose"],',
        "      },",
        "    },",
        `    description: "${"x".repeat(90)}",`,
        "  }",
      ].join("\n"),
    );
    expect(JSON5.parse(text)).toEqual(value);
  });

  it("follows the file's style: no trailing commas, CRLF, tabs, single quotes, quoted keys", () => {
    const text = formatJson5Value(
      { a: "x", b: [1] },
      { inline: false, trailingComma: false, newline: "\r\n", unit: "\t", quote: "'", quoteKeys: true },
    );
    expect(text).toBe("{\r\n\t'a': 'x',\r\n\t'b': [1]\r\n}");
  });

  it("refuses a value nested deeper than any config value", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 40; level += 1) deep = [deep];
    expect(() => formatJson5Value(deep)).toThrow(/deeper than 32 levels/u);
  });

  it("quotes keys that are not identifiers", () => {
    expect(formatJson5Key("toolSearch")).toBe("toolSearch");
    expect(formatJson5Key("llama.cpp")).toBe('"llama.cpp"');
    expect(formatJson5Key("1st")).toBe('"1st"');
  });
});
