import { describe, expect, it } from "vitest";
import { safeServerNames } from "./create-mcp-tool-source.js";

describe("safeServerNames", () => {
  it.each([
    ["calendar", "calendar"],
    ["my-server_2", "my-server_2"],
    ["files.local", "files_local"],
    ["a b/c:d", "a_b_c_d"],
    ["ümlaut", "_mlaut"],
    ["", "server"],
  ])("%j becomes %j", (name, safe) => {
    expect(safeServerNames([name]).get(name)).toBe(safe);
  });

  it("keeps names apart that become equal, in config order", () => {
    const names = safeServerNames(["a.b", "a_b", "a:b"]);
    expect([...names.values()]).toEqual(["a_b", "a_b_2", "a_b_3"]);
  });

  it("only ever yields id-safe characters", () => {
    for (const safe of safeServerNames(["x\ny", "<|im_start|>", "..", "日本"]).values()) {
      expect(safe).toMatch(/^[A-Za-z0-9_-]+$/u);
    }
  });
});
