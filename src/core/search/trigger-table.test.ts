import { describe, expect, it } from "vitest";
import { stem } from "./stem.js";
import { compileTriggers } from "./trigger-table.js";

describe("compileTriggers", () => {
  const table = compileTriggers([
    { triggers: ["notify", "tell me"], adds: ["send", "sends", "message"] },
    { triggers: ["notifying", "look up"], adds: ["alert"] },
  ]);

  it("indexes word triggers by their query term, so inflections share a group list", () => {
    expect(table.byTerm.get(stem("notify"))).toEqual([0, 1]);
    expect(table.byTerm.has("tell")).toBe(false);
  });

  it("indexes two-word triggers as lowercase phrases, with their first words and lengths", () => {
    expect(table.byPhrase.get("tell me")).toEqual([0]);
    expect(table.byPhrase.get("look up")).toEqual([1]);
    expect([...table.phraseStarts].sort()).toEqual(["look", "tell"]);
    expect([...table.phraseStartLengths]).toEqual([4]);
  });

  it("tokenises each group's added words like a query, each term once", () => {
    expect(table.adds).toEqual([[stem("send"), stem("message")], [stem("alert")]]);
  });
});
