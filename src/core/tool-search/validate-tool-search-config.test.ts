import { describe, expect, it } from "vitest";
import { validateToolSearchConfig } from "./validate-tool-search-config.js";

describe("validateToolSearchConfig", () => {
  it("is empty for every valid value", () => {
    for (const value of [
      undefined,
      true,
      false,
      {},
      { enabled: false, mode: "directory", maxSearchLimit: 99 },
    ]) {
      expect(validateToolSearchConfig(value)).toEqual([]);
    }
  });

  it("lists every problem with its path, for doctor and the config loader", () => {
    expect(validateToolSearchConfig({ enabled: false, mode: "code", codeTimeoutMs: 2500, extra: 1 })).toEqual(
      [
        {
          path: "tools.toolSearch.codeTimeoutMs",
          message:
            "retired key (the tool_search_code bridge moved to Code Mode); run toolsift doctor --fix to remove it",
        },
        {
          path: "tools.toolSearch.extra",
          message:
            "unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)",
        },
        {
          path: "tools.toolSearch.mode",
          message:
            '"code" is retired (the tool_search_code bridge moved to Code Mode); run toolsift doctor --fix to migrate it to "tools"',
        },
      ],
    );
  });

  it("never throws on hostile values", () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error("boom");
        },
      },
    );
    expect(validateToolSearchConfig(hostile)).toEqual([
      { path: "tools.toolSearch", message: "expected true, false or an object (got an object)" },
    ]);
  });
});

describe("validateToolSearchConfig on limits (a config file is stricter than the library)", () => {
  it.each([
    [
      { searchDefaultLimit: "12" },
      "tools.toolSearch.searchDefaultLimit",
      'expected a positive integer (got "12"); write it as a number, without quotes (12), or remove the key for the default 8',
    ],
    [
      { maxSearchLimit: -3 },
      "tools.toolSearch.maxSearchLimit",
      "expected a positive integer (got -3); use a whole number of at least 1, or remove the key for the default 20",
    ],
    [
      { searchDefaultLimit: 1.5 },
      "tools.toolSearch.searchDefaultLimit",
      "expected a positive integer (got 1.5); use a whole number such as 1, or remove the key for the default 8",
    ],
    [
      { maxSearchLimit: 0 },
      "tools.toolSearch.maxSearchLimit",
      "expected a positive integer (got 0); use a whole number of at least 1, or remove the key for the default 20",
    ],
    [
      { maxSearchLimit: null },
      "tools.toolSearch.maxSearchLimit",
      "expected a positive integer (got null); use a whole number of at least 1, or remove the key for the default 20",
    ],
    [
      { searchDefaultLimit: "eight" },
      "tools.toolSearch.searchDefaultLimit",
      'expected a positive integer (got "eight"); use a whole number of at least 1, or remove the key for the default 8',
    ],
  ])("refuses %j naming the key and the fix", (value, path, message) => {
    expect(validateToolSearchConfig(value)).toEqual([{ path, message }]);
  });

  it("accepts positive integers (above the ceiling too: those are clamped, as the spec says)", () => {
    expect(validateToolSearchConfig({ searchDefaultLimit: 4, maxSearchLimit: 99 })).toEqual([]);
  });

  it("lists limit problems beside the other problems of the same value", () => {
    expect(
      validateToolSearchConfig({ mode: "fast", searchDefaultLimit: "3" }).map((issue) => issue.path),
    ).toEqual(["tools.toolSearch.mode", "tools.toolSearch.searchDefaultLimit"]);
  });
});
