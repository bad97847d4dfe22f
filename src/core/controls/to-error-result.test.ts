import { describe, expect, it } from "vitest";
import { ToolsiftError } from "../../shared/errors/index.js";
import { BlockedError } from "../execution/index.js";
import { INTERNAL_ERROR_MESSAGE, toErrorResult } from "./to-error-result.js";

describe("toErrorResult", () => {
  it("keeps a ToolsiftError's code and message", () => {
    expect(toErrorResult(new ToolsiftError("UNKNOWN_TOOL", "Unknown tool id: x."))).toEqual({
      content: [{ type: "text", text: "Unknown tool id: x." }],
      details: { error: { code: "UNKNOWN_TOOL", message: "Unknown tool id: x." } },
      isError: true,
    });
  });

  it("keeps the structured side of a block", () => {
    const error = new BlockedError('Tool "native:core:rm" was blocked: denied by policy', "denied by policy");
    expect(toErrorResult(error)).toEqual({
      content: [{ type: "text", text: 'Tool "native:core:rm" was blocked: denied by policy' }],
      details: {
        status: "blocked",
        reason: "denied by policy",
        error: { code: "BLOCKED", message: 'Tool "native:core:rm" was blocked: denied by policy' },
      },
      isError: true,
    });
  });

  it.each([
    ["a plain Error", new Error("secret path /home/me/.ssh/id_rsa")],
    ["a string", "boom"],
    ["undefined", undefined],
    ["a RangeError", new RangeError("Maximum call stack size exceeded")],
    [
      "an error claiming to be a ToolsiftError with a bad code",
      { name: "ToolsiftError", code: 5, message: 1 },
    ],
    [
      "a revoked Proxy",
      (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      })(),
    ],
  ])("turns %s into INTERNAL with a generic message and no stack", (_label, error) => {
    const result = toErrorResult(error);
    expect(result).toEqual({
      content: [{ type: "text", text: INTERNAL_ERROR_MESSAGE }],
      details: { error: { code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE } },
      isError: true,
    });
    expect(JSON.stringify(result)).not.toMatch(/secret|stack|at /);
  });
});
