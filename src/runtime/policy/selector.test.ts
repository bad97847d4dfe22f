import { describe, expect, it } from "vitest";
import { toCatalogEntry } from "../../core/catalog/index.js";
import { ALL_FIXTURE_IDS, policyFixture } from "./policy.test-support.js";
import { matchesSelector } from "./selector.js";

const entries = policyFixture().map((tool) => {
  const entry = toCatalogEntry(tool);
  if (!entry) throw new Error("fixture tool must catalog");
  return entry;
});

function matched(selector: string): string[] {
  return entries.filter((entry) => matchesSelector(entry, selector)).map((entry) => entry.id);
}

describe("matchesSelector", () => {
  it("has a fixture with every id the table expects", () => {
    expect(entries.map((entry) => entry.id)).toEqual([...ALL_FIXTURE_IDS]);
  });

  const table: Array<[kind: string, selector: string, ids: string[]]> = [
    ["exact name (every source)", "read", ["native:core:read", "mcp:files:read"]],
    ["exact name, plugin", "get_forecast", ["native:weather:get_forecast"]],
    ["exact name is case-sensitive", "READ", []],
    ["exact id", "native:weather:get_forecast", ["native:weather:get_forecast"]],
    ["exact id of the core read only", "native:core:read", ["native:core:read"]],
    ["exact id of an MCP look-alike", "mcp:files:read", ["mcp:files:read"]],
    ["exact id, client", "client:client:pick_file", ["client:client:pick_file"]],
    ["id with a glob", "native:core:*", ALL_FIXTURE_IDS.filter((id) => id.startsWith("native:core:"))],
    ["unknown id", "native:weather:nope", []],
    ["name glob *", "weather_*", ["native:weather:weather_alerts"]],
    ["name glob ?", "exe?", ["native:core:exec"]],
    ["name glob ? needs exactly one character", "exec?", []],
    ["glob * alone matches every tool", "*", [...ALL_FIXTURE_IDS]],
    [
      "glob in the middle",
      "*_f*",
      ["native:core:web_fetch", "native:weather:get_forecast", "client:client:pick_file"],
    ],
    ["regex dot is literal", "weather.v2+beta", ["native:weather:weather.v2+beta"]],
    ["regex dot does not match any character", "weather_v2+beta", []],
    ["regex plus is literal", "weather.v2+*", ["native:weather:weather.v2+beta"]],
    ["regex .* is not a wildcard", "weather.*", ["native:weather:weather.v2+beta"]],
    ["regex character class is literal", "[a-z]*", []],
    ["regex anchors are literal", "^read$", []],
    ["regex alternation is literal", "read|exec", []],
    ["backslash is literal", "re\\ad", []],
    [
      "group:fs is core read/write/edit only",
      "group:fs",
      ["native:core:read", "native:core:write", "native:core:edit"],
    ],
    ["group:runtime is core exec/process", "group:runtime", ["native:core:exec", "native:core:process"]],
    [
      "group:plugins is every plugin tool",
      "group:plugins",
      [
        "native:weather:get_forecast",
        "native:weather:weather_alerts",
        "native:weather:weather.v2+beta",
        "native:notes:notes_add",
      ],
    ],
    ["group:mcp is every MCP tool", "group:mcp", ["mcp:calendar:create_event", "mcp:files:read"]],
    ["group:client is every client tool", "group:client", ["client:client:pick_file"]],
    ["unknown group matches nothing", "group:everything", []],
    ["group: with nothing after matches nothing", "group:", []],
    ["group names are exact (no glob)", "group:*", []],
    [
      "plugin owner",
      "plugin:weather",
      ["native:weather:get_forecast", "native:weather:weather_alerts", "native:weather:weather.v2+beta"],
    ],
    ["plugin owner, other plugin", "plugin:notes", ["native:notes:notes_add"]],
    ["plugin:core is not the core", "plugin:core", []],
    ["plugin owner does not reach MCP", "plugin:calendar", []],
    ["mcp owner", "mcp:calendar", ["mcp:calendar:create_event"]],
    ["mcp owner does not reach plugins", "mcp:weather", []],
    ["owner glob", "mcp:*", ["mcp:calendar:create_event", "mcp:files:read"]],
    ["empty owner matches nothing", "plugin:", []],
    ["unknown prefix matches nothing", "core:read", []],
    ["empty selector matches nothing", "", []],
    ["padded selector matches nothing", " read", []],
  ];

  it.each(table)("%s: %j", (_kind, selector, ids) => {
    expect(matched(selector)).toEqual(ids);
  });

  it("matches nothing for a selector that is not a string", () => {
    expect(matched(42 as unknown as string)).toEqual([]);
  });
});
