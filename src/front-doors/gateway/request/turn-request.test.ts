import { describe, expect, it } from "vitest";
import { joinInstructions } from "./turn-request.js";

describe("joinInstructions", () => {
  it("joins non-blank texts with blank lines, and is undefined without any", () => {
    expect(joinInstructions(["a", " ", "b"])).toBe("a\n\nb");
    expect(joinInstructions(["", "  "])).toBeUndefined();
  });
});
