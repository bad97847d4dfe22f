import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../providers/index.js";
import {
  DEFAULT_CONTEXT_WINDOW_TOKENS,
  DEFAULT_OUTPUT_RESERVE_TOKENS,
  fitHistory,
  historyBudgetTokens,
} from "./fit-history.js";

const user = (text: string): ConversationItem => ({ type: "message", role: "user", text });
const assistant = (text: string): ConversationItem => ({ type: "message", role: "assistant", text });
const call = (callId: string): ConversationItem => ({
  type: "function_call",
  callId,
  name: "lookup",
  arguments: "{}",
});
const output = (callId: string, text: string): ConversationItem => ({
  type: "function_call_output",
  callId,
  output: text,
});

/** One turn: a user message, a tool call with its output, and an answer. */
function turn(n: number, outputText = `result ${n}`): ConversationItem[] {
  return [user(`question ${n}`), call(`c${n}`), output(`c${n}`, outputText), assistant(`answer ${n}`)];
}

/** True when every function_call has its output in `items` and the reverse. */
function pairsIntact(items: readonly ConversationItem[]): boolean {
  const calls = new Set(items.flatMap((item) => (item.type === "function_call" ? [item.callId] : [])));
  const outputs = new Set(
    items.flatMap((item) => (item.type === "function_call_output" ? [item.callId] : [])),
  );
  return [...calls].every((id) => outputs.has(id)) && [...outputs].every((id) => calls.has(id));
}

describe("historyBudgetTokens", () => {
  it("takes the agent's window less the answer's room and the stable prefix", () => {
    const systemPrompt = "x".repeat(3000); // 1,000 estimated tokens
    const budget = historyBudgetTokens({ contextWindowTokens: 10_000, systemPrompt, tools: [] });
    // The default reserve is capped at a quarter of the window; "[]" is one more token.
    expect(budget).toBe(10_000 - 2_500 - 1_000 - 1);
  });

  it("uses the default window and reserve when the agent names none, and the request's maxOutputTokens", () => {
    expect(historyBudgetTokens({ systemPrompt: "", tools: [] })).toBe(
      DEFAULT_CONTEXT_WINDOW_TOKENS - DEFAULT_OUTPUT_RESERVE_TOKENS - 1,
    );
    expect(historyBudgetTokens({ systemPrompt: "", tools: [], maxOutputTokens: 100 })).toBe(
      DEFAULT_CONTEXT_WINDOW_TOKENS - 100 - 1,
    );
  });

  it("counts the declared tools and never goes below zero", () => {
    const tools = [{ name: "t", description: "d".repeat(30_000), parameters: {} }];
    expect(historyBudgetTokens({ contextWindowTokens: 20_000, systemPrompt: "", tools })).toBeLessThan(
      20_000 - 5_000 - 10_000 + 1,
    );
    expect(historyBudgetTokens({ contextWindowTokens: 1_000, systemPrompt: "y".repeat(9_000), tools })).toBe(
      0,
    );
  });
});

describe("fitHistory", () => {
  it("sends everything, untouched, when it fits", () => {
    const items = [...turn(1), ...turn(2)];
    const fitted = fitHistory(items, { budgetTokens: 10_000, keepFrom: 4 });
    expect(fitted.items).toEqual(items);
    expect(fitted.items).not.toBe(items);
    expect(fitted.trimmed).toBeUndefined();
  });

  it("shortens old tool outputs, oldest first, before dropping any turn", () => {
    const big = "r".repeat(3_000); // 1,000 tokens each
    const items = [...turn(1, big), ...turn(2, big), ...turn(3, big), user("now")];
    const fitted = fitHistory(items, { budgetTokens: 1_300, keepFrom: 12 });
    expect(fitted.items).toHaveLength(items.length);
    const outputs = fitted.items.filter((item) => item.type === "function_call_output");
    expect(outputs[0]?.output).toMatch(/^\[earlier tool output trimmed .*it was 3000 characters\]$/u);
    expect(outputs[1]?.output).toMatch(/trimmed/u);
    expect(outputs[2]?.output).toBe(big); // the newest one was not needed
    expect(fitted.trimmed).toMatchObject({ items: 2, droppedItems: 0, shortenedOutputs: 2 });
    expect(fitted.trimmed?.chars).toBeGreaterThan(5_800);
    expect(items[2]).toEqual(output("c1", big)); // the input is never changed
  });

  it("drops whole earlier turns, oldest first, when shortening is not enough", () => {
    // Each turn is about 45 estimated tokens, the last message 108: 243 in all.
    const items = [...turn(1), ...turn(2), ...turn(3), user("x".repeat(300))];
    const fitted = fitHistory(items, { budgetTokens: 160, keepFrom: 12 });
    expect(fitted.items).toEqual([...turn(3), user("x".repeat(300))]);
    expect(fitted.trimmed).toMatchObject({ items: 8, droppedItems: 8, shortenedOutputs: 0 });
    expect(fitted.trimmed?.chars).toBe(2 * "question 1lookup{}result 1answer 1".length);
  });

  it("never drops the current turn, even over budget", () => {
    const items = [...turn(1), user("y".repeat(30_000)), call("c9"), output("c9", "z".repeat(30_000))];
    const fitted = fitHistory(items, { budgetTokens: 10, keepFrom: 4 });
    expect(fitted.items).toEqual(items.slice(4));
    expect(fitted.trimmed).toMatchObject({ droppedItems: 4, shortenedOutputs: 0 });
  });

  it("keeps the turn holding a call the current turn answers (a client tool's output)", () => {
    // Turn 2 ended with a client tool call; the current turn is only its output.
    const items = [...turn(1, "o".repeat(3_000)), user("question 2"), call("client"), output("client", "42")];
    const fitted = fitHistory(items, { budgetTokens: 30, keepFrom: 6 });
    expect(fitted.items).toEqual([user("question 2"), call("client"), output("client", "42")]);
    expect(pairsIntact(fitted.items)).toBe(true);
  });

  it("never starts a turn inside a call/output pair, even at a user message", () => {
    // A user message between a call and its output (a resent history) does not split them.
    const items = [user("a"), call("k"), user("b"), output("k", "done"), user("c")];
    const fitted = fitHistory(items, { budgetTokens: 10, keepFrom: 4 });
    expect(fitted.items).toEqual([user("c")]);
    const kept = fitHistory(items, { budgetTokens: 10, keepFrom: 3 });
    expect(kept.items).toEqual(items);
  });

  it("brings a 521-turn session under the budget, pairs intact, the newest turns kept", () => {
    const items: ConversationItem[] = [];
    for (let n = 0; n < 521; n += 1) items.push(...turn(n, `{"rows":"${"v".repeat(1_200)}"}`));
    items.push(user("and now?"));
    const budget = historyBudgetTokens({ systemPrompt: "s".repeat(20_000), tools: [] });
    const fitted = fitHistory(items, { budgetTokens: budget, keepFrom: items.length - 1 });
    // Even with the JSON framing of each item counted at 4 bytes a token, the history fits; it did not before.
    expect(Buffer.byteLength(JSON.stringify(fitted.items)) / 4).toBeLessThan(budget);
    expect(Buffer.byteLength(JSON.stringify(items)) / 4).toBeGreaterThan(budget);
    expect(pairsIntact(fitted.items)).toBe(true);
    expect(fitted.items.at(-1)).toEqual(user("and now?"));
    expect(fitted.items.at(-2)).toEqual(assistant("answer 520"));
    expect(fitted.trimmed?.shortenedOutputs).toBeGreaterThan(0);
  });
});
