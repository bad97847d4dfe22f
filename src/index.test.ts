import { describe, expect, it } from "vitest";

describe("the package surface", () => {
  it("exports exactly the library contract's runtime names (change deliberately)", async () => {
    const surface = Object.keys(await import("toolsift")).sort();
    expect(surface).toEqual(["ToolsiftError", "createCodeMode", "createToolSearch", "isToolsiftError"]);
  });
});
