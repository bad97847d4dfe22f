import { describe, expect, it } from "vitest";
import { stem } from "./stem.js";

describe("stem", () => {
  it.each([
    ["scheduling", "schedule"],
    ["scheduled", "schedule"],
    ["schedules", "schedule"],
    ["scheduler", "schedule"],
    ["running", "run"],
    ["runner", "run"],
    ["runs", "run"],
    ["reminders", "remind"],
    ["reminder", "remind"],
    ["policies", "policy"],
    ["policies", "policie"],
    ["cookies", "cookie"],
    ["cookies", "cooky"],
    ["files", "file"],
    ["filtering", "filter"],
    ["addresses", "address"],
    ["copied", "copy"],
    ["applying", "apply"],
    ["settings", "set"],
    ["stopped", "stop"],
    ["statuses", "status"],
    ["using", "use"],
    ["created", "create"],
  ])("%s meets %s", (left, right) => {
    expect(stem(left)).toBe(stem(right));
  });

  it.each([
    ["running", "run"],
    ["runner", "run"],
    ["calling", "call"],
    ["processing", "process"],
    ["called", "call"],
    ["processed", "process"],
    ["adding", "add"],
    ["buzzing", "buzz"],
    ["news", "news"],
    ["status", "status"],
    ["class", "class"],
    ["analysis", "analysis"],
    ["string", "string"],
    ["need", "need"],
    ["user", "user"],
    ["free", "free"],
    ["get", "get"],
  ])("%s stems to %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it("keeps `news` apart from `new` and `status` from `statu`", () => {
    expect(stem("news")).not.toBe(stem("new"));
    expect(stem("status")).toBe("status");
  });

  it("leaves short words, non-ASCII words, digits and underscores alone", () => {
    for (const word of ["id", "os", "café", "mp3", "web_search", "Files"]) expect(stem(word)).toBe(word);
  });

  it("is deterministic", () => {
    const words = ["scheduling", "policies", "cookies", "runner", "reminders"];
    expect(words.map(stem)).toEqual(words.map(stem));
  });
});
