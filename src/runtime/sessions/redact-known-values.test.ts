import { describe, expect, it } from "vitest";
import { collectSecretValues, redactKnownValues } from "./index.js";

describe("collectSecretValues", () => {
  it("finds the values of secret-named keys at any depth, inside JSON strings too", () => {
    const args = JSON.stringify({
      id: "native:vault:store",
      args: { password: "hunter2-long", nested: { apiKey: "ak-12345", note: "plain" }, token: "tk-abcd" },
    });
    expect(collectSecretValues({ arguments: args, client_secret: ["cs-9876"] }).sort()).toEqual([
      "ak-12345",
      "cs-9876",
      "hunter2-long",
      "tk-abcd",
    ]);
  });

  it("skips short values, non-strings, the redaction marker and keys that only look similar", () => {
    expect(
      collectSecretValues({
        password: "abc",
        token: 12345,
        secret: "[REDACTED]",
        inputTokens: "long-enough",
      }),
    ).toEqual([]);
  });

  it("never throws on text that is not JSON", () => {
    expect(collectSecretValues("{ not json")).toEqual([]);
    expect(collectSecretValues(undefined)).toEqual([]);
  });
});

describe("redactKnownValues", () => {
  const secret = 'pw-"quoted"-1';

  it("replaces a known value in every string, raw and JSON-escaped (one or two levels deep)", () => {
    const once = JSON.stringify({ password: secret });
    const twice = JSON.stringify({ text: once });
    const event = {
      type: "assistant-output",
      items: [{ text: `The password was ${secret}.` }, { text: once }, { text: twice }],
      count: 3,
    };
    const redacted = redactKnownValues(event, [secret]);
    expect(JSON.stringify(redacted)).not.toContain("quoted");
    expect(redacted.items[0]?.text).toBe("The password was [REDACTED].");
    expect(JSON.parse(String(redacted.items[1]?.text))).toEqual({ password: "[REDACTED]" });
    expect(redacted.count).toBe(3);
  });

  it("leaves the input unchanged and ignores values shorter than the minimum", () => {
    const event = { text: "a b c abcd" };
    expect(redactKnownValues(event, ["abc"])).toEqual(event);
    const copy = redactKnownValues(event, ["abcd"]);
    expect(copy).toEqual({ text: "a b c [REDACTED]" });
    expect(event.text).toBe("a b c abcd");
  });

  it("replaces a longer secret before a shorter one it contains", () => {
    expect(redactKnownValues("key sk-long-secret", ["sk-long", "sk-long-secret"])).toBe("key [REDACTED]");
  });
});
