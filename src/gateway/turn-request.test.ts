import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../providers/index.js";
import { joinInstructions, newTurnItems } from "./turn-request.js";

const user = (text: string): ConversationItem => ({ type: "message", role: "user", text });
const assistant = (text: string): ConversationItem => ({ type: "message", role: "assistant", text });
const call: ConversationItem = { type: "function_call", callId: "c1", name: "f", arguments: "{}" };
const output: ConversationItem = { type: "function_call_output", callId: "c1", output: "ok" };

describe("newTurnItems", () => {
  it.each([
    [
      "a new session keeps everything",
      [user("a"), assistant("b"), user("c")],
      false,
      [user("a"), assistant("b"), user("c")],
    ],
    ["new items only are kept", [user("a")], true, [user("a")]],
    ["resent history is dropped", [user("a"), assistant("b"), user("c")], true, [user("c")]],
    ["a function call ends the history", [user("a"), call, output], true, [output]],
    [
      "the last assistant item counts",
      [user("a"), assistant("b"), call, output, assistant("d"), user("e")],
      true,
      [user("e")],
    ],
    ["nothing after the assistant leaves nothing", [user("a"), assistant("b")], true, []],
  ])("%s", (_name, items, hasHistory, expected) => {
    expect(newTurnItems(items, hasHistory)).toEqual(expected);
  });
});

describe("joinInstructions", () => {
  it("joins non-blank texts with blank lines, and is undefined without any", () => {
    expect(joinInstructions(["a", " ", "b"])).toBe("a\n\nb");
    expect(joinInstructions(["", "  "])).toBeUndefined();
  });
});
