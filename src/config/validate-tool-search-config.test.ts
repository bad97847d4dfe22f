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
          message: "unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)",
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
