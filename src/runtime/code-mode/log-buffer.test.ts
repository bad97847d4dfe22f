import { describe, expect, it } from "vitest";
import { LogBuffer, logsTruncatedLine } from "./log-buffer.js";

describe("LogBuffer", () => {
  it("keeps lines in order and prefixes warn and error", () => {
    const logs = new LogBuffer(1024);
    logs.add("log", "one");
    logs.add("info", "two");
    logs.add("warn", "three");
    logs.add("error", "four");
    expect(logs.lines()).toEqual(["one", "two", "[warn] three", "[error] four"]);
  });

  it("counts UTF-8 bytes plus one per line, cuts the crossing line on a character boundary, and adds the marker once", () => {
    const logs = new LogBuffer(10);
    logs.add("log", "abcd"); // 5 bytes
    logs.add("log", "ééé"); // 7 bytes: only "éé" (4 bytes) fits in the 5 left with its line break
    logs.add("log", "dropped");
    expect(logs.lines()).toEqual(["abcd", "éé", logsTruncatedLine(10)]);
  });

  it("keeps a line that exactly fills the cap, and truncates at the next one", () => {
    const logs = new LogBuffer(6);
    logs.add("log", "12345");
    expect(logs.lines()).toEqual(["12345"]);
    logs.add("log", "x");
    expect(logs.lines()).toEqual(["12345", logsTruncatedLine(6)]);
  });

  it("hands out copies", () => {
    const logs = new LogBuffer(100);
    logs.add("log", "a");
    logs.lines().push("b");
    expect(logs.lines()).toEqual(["a"]);
  });
});
