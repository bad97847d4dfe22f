import { describe, expect, it } from "vitest";
import { createToolSearch, type ToolSearchConfigValue } from "../../index.js";

// Type tests: `npx tsc -p tsconfig.json --noEmit` fails when a `@ts-expect-error` line compiles, so these
// lines prove `config` is typed; the assertions prove the run-time check stays for untyped callers.
describe("createToolSearch config is typed", () => {
  it("accepts the documented shapes", () => {
    const values: ToolSearchConfigValue[] = [
      true,
      false,
      { mode: "directory", alwaysVisible: ["web_search"] },
    ];
    for (const config of values)
      expect(createToolSearch({ tools: [], config }).mode).toMatch(/^(tools|directory)$/u);
  });

  it("a bogus mode does not compile, and is still refused at run time", () => {
    // @ts-expect-error "bogus" is not a ToolSearchMode
    expect(() => createToolSearch({ tools: [], config: { mode: "bogus" } })).toThrow(/mode/u);
  });

  it("a value of the wrong kind does not compile, and is still refused at run time", () => {
    // @ts-expect-error a string is not a tools.toolSearch value
    expect(() => createToolSearch({ tools: [], config: "directory" })).toThrow(/toolSearch/u);
  });
});
