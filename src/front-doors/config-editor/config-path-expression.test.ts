import { describe, expect, it } from "vitest";
import { parseConfigPathExpression } from "./config-path-expression.js";

describe("parseConfigPathExpression", () => {
  const valid: [string, (string | number)[]][] = [
    ["tools", ["tools"]],
    ["tools.toolSearch", ["tools", "toolSearch"]],
    ["agents.list[0].id", ["agents", "list", 0, "id"]],
    ["agents.list[12]", ["agents", "list", 12]],
    ["a[0][1].b", ["a", 0, 1, "b"]],
    ['models.providers["llama.cpp"].baseUrl', ["models", "providers", "llama.cpp", "baseUrl"]],
    ["mcp.servers['my server'].command", ["mcp", "servers", "my server", "command"]],
    ['["quoted"].x', ["quoted", "x"]],
    ["models.providers.lm-studio.api", ["models", "providers", "lm-studio", "api"]],
    ['a["say \\"hi\\""]', ["a", 'say "hi"']],
  ];
  it.each(valid)("%s", (expression, segments) => {
    expect(parseConfigPathExpression(expression)).toEqual(segments);
  });

  const invalid: [string, string][] = [
    ["", "it is empty"],
    ["a..b", 'unexpected "..b"'],
    ["a.", 'unexpected "."'],
    [".a", 'unexpected ".a"'],
    ["a[x]", 'unexpected "[x]"'],
    ["a[01]", 'unexpected "[01]"'],
    ["a[-1]", 'unexpected "[-1]"'],
    ["[0]", 'unexpected "[0]"'],
    ["a b", 'unexpected " b"'],
    ["a.__proto__.b", "__proto__ is not a config key"],
    [`${"a.".repeat(40)}a`, "deeper than 32 levels"],
    ["a[99999999999999999999]", "too large"],
  ];
  it.each(invalid)("refuses %j (%s)", (expression, reason) => {
    expect(() => parseConfigPathExpression(expression)).toThrow(reason);
    expect(() => parseConfigPathExpression(expression)).toThrow("agents.list[0].id");
  });
});
