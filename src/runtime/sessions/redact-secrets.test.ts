import { describe, expect, it } from "vitest";
import { MAX_REDACTION_DEPTH, MAX_REDACTION_NODES } from "./limits.js";
import { CIRCULAR, REDACTED, redactSecrets, TRUNCATED } from "./redact-secrets.js";

const OPENAI_KEY = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL";

describe("redactSecrets", () => {
  it("redacts the values of secret-like keys at any depth, in objects and arrays", () => {
    const input = {
      password: "hunter2",
      nested: { Token: 12345, deeper: [{ apiKey: "k1" }, { api_key: "k2" }, { client_secret: { a: 1 } }] },
      headers: { Authorization: "Bearer abc", "x-api-key": "k3" },
      access_token: "t1",
      refresh_token: "t2",
      private_key: "pem",
      passwd: "p",
      SECRET: "s",
      city: "Paris",
      password_missing: null,
    };
    expect(redactSecrets(input)).toEqual({
      password: REDACTED,
      nested: {
        Token: REDACTED,
        deeper: [{ apiKey: REDACTED }, { api_key: REDACTED }, { client_secret: REDACTED }],
      },
      headers: { Authorization: REDACTED, "x-api-key": REDACTED },
      access_token: REDACTED,
      refresh_token: REDACTED,
      private_key: REDACTED,
      passwd: REDACTED,
      SECRET: REDACTED,
      city: "Paris",
      password_missing: null,
    });
  });

  it("applies the text patterns to every string", () => {
    expect(redactSecrets({ note: `use ${OPENAI_KEY}`, list: ["Bearer xyz", "plain"] })).toEqual({
      note: `use ${REDACTED}`,
      list: [`Bearer ${REDACTED}`, "plain"],
    });
  });

  it("parses and redacts JSON text (function-call arguments) and re-serialises it", () => {
    const args = JSON.stringify({ city: "Paris", auth: { password: "hunter2" }, note: `k=${OPENAI_KEY}` });
    const redacted = redactSecrets({ type: "function_call", arguments: args }) as { arguments: string };
    expect(JSON.parse(redacted.arguments)).toEqual({
      city: "Paris",
      auth: { password: REDACTED },
      note: `k=${REDACTED}`,
    });
  });

  it("keeps JSON text byte-identical when nothing in it is secret", () => {
    const args = '{ "city" : "Paris",\n "days": [1, 2] }';
    expect(redactSecrets({ arguments: args })).toEqual({ arguments: args });
  });

  it("applies the string patterns to JSON-looking text that does not parse", () => {
    const torn = '{"city": "Paris", "password": "hunter2", "x": [}';
    expect(redactSecrets(torn)).toBe(`{"city": "Paris", "password": "${REDACTED}", "x": [}`);
  });

  it("redacts JSON arrays held in strings", () => {
    expect(redactSecrets('[{"token":"abc"}]')).toBe(`[{"token":"${REDACTED}"}]`);
  });

  it("never mutates its input", () => {
    const input = { password: "p", nested: { args: '{"token":"t"}', list: ["Bearer abc"] } };
    const snapshot = structuredClone(input);
    const out = redactSecrets(input) as typeof input;
    expect(input).toEqual(snapshot);
    expect(out).not.toBe(input);
    expect(out.nested).not.toBe(input.nested);
    expect(out.nested.list).not.toBe(input.nested.list);
  });

  it("keeps the fields of session events that only look like secrets", () => {
    const event = {
      type: "model-request",
      at: "2026-01-01T00:00:00.000Z",
      runId: "r1",
      provider: "openai",
      model: "gpt-x",
      declaredTools: ["tool_search", "tool_describe", "tool_call"],
      declaredToolCount: 3,
      systemPromptChars: 1200,
      requestBytes: 4000,
      usage: { inputTokens: 10, outputTokens: 5 },
    };
    expect(redactSecrets(event)).toEqual(event);
  });

  it("replaces cycles with a marker instead of looping", () => {
    const input: Record<string, unknown> = { name: "a" };
    input.self = input;
    input.list = [input];
    expect(redactSecrets(input)).toEqual({ name: "a", self: CIRCULAR, list: [CIRCULAR] });
  });

  it("copies shared (non-cyclic) references in full", () => {
    const shared = { city: "Paris" };
    expect(redactSecrets({ a: shared, b: shared })).toEqual({ a: { city: "Paris" }, b: { city: "Paris" } });
  });

  it("bounds depth", () => {
    let deep: unknown = "bottom";
    for (let index = 0; index < MAX_REDACTION_DEPTH + 10; index += 1) deep = { next: deep };
    let cursor = redactSecrets(deep);
    let depth = 0;
    while (typeof cursor === "object" && cursor !== null) {
      cursor = (cursor as { next: unknown }).next;
      depth += 1;
    }
    expect(cursor).toBe(TRUNCATED);
    expect(depth).toBe(MAX_REDACTION_DEPTH);
  });

  it("bounds the number of values visited", () => {
    const wide = Array.from({ length: MAX_REDACTION_NODES + 50 }, (_, index) => index);
    const out = redactSecrets(wide) as unknown[];
    expect(out.length).toBeLessThan(wide.length);
    expect(out[out.length - 1]).toBe(TRUNCATED);
  });

  it("survives throwing getters and honours toJSON", () => {
    const hostile = {
      get boom(): string {
        throw new Error("no");
      },
      when: new Date("2026-01-02T03:04:05.000Z"),
    };
    expect(redactSecrets(hostile)).toEqual({ boom: undefined, when: "2026-01-02T03:04:05.000Z" });
  });

  it("keeps a __proto__ key as data", () => {
    const input = JSON.parse('{"__proto__": {"password": "p"}, "a": 1}') as unknown;
    const out = redactSecrets(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ password: REDACTED });
  });

  it("passes primitives through", () => {
    expect(redactSecrets(42)).toBe(42);
    expect(redactSecrets(null)).toBe(null);
    expect(redactSecrets(undefined)).toBe(undefined);
    expect(redactSecrets(true)).toBe(true);
  });
});
