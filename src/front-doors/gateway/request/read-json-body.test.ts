import { describe, expect, it } from "vitest";
import { errorOf, startTestGateway } from "../gateway.test-support.js";
import { MAX_JSON_DEPTH, MAX_QUOTED_VALUE_CHARS } from "../limits.js";
import { jsonDepthExceeds } from "./json-depth-exceeds.js";
import { quoteValue } from "./request-fields.js";

/** `depth` nested arrays as JSON text (depth 1 is `[]`). */
const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
/** `depth` nested objects as JSON text (depth 1 is `{}`). */
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

const HOSTILE = 10_000;

/** Every place a client can put a value, each with a hostile depth: [name, path, body text]. */
const DEEP_BODIES: ReadonlyArray<readonly [string, string, string]> = [
  [
    "client tool parameters (Responses form)",
    "/v1/responses",
    `{"input":"hi","tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":${objects(HOSTILE)}}}]}`,
  ],
  [
    "client tool parameters (Chat form)",
    "/v1/chat/completions",
    `{"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${objects(HOSTILE)}}}]}`,
  ],
  ["input[0].type", "/v1/responses", `{"input":[{"type":${arrays(HOSTILE)}}]}`],
  ["input[0].content", "/v1/responses", `{"input":[{"role":"user","content":${arrays(HOSTILE)}}]}`],
  ["the input itself", "/v1/responses", `{"input":${arrays(HOSTILE)}}`],
  ["an ignored top-level field", "/v1/responses", `{"input":"hi","metadata":${objects(HOSTILE)}}`],
  [
    "messages[0].content",
    "/v1/chat/completions",
    `{"messages":[{"role":"user","content":${arrays(HOSTILE)}}]}`,
  ],
  [
    "tool_calls[0].function",
    "/v1/chat/completions",
    `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":${objects(HOSTILE)}}]},{"role":"user","content":"x"}]}`,
  ],
  ["the whole body", "/v1/chat/completions", arrays(HOSTILE)],
];

describe("request depth", () => {
  it.each(DEEP_BODIES)(
    "a hostile depth in %s is a 400 naming the limit, and runs nothing",
    async (_, path, body) => {
      const test = await startTestGateway();
      const response = await test.post(path, body);
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("json_too_deep");
      expect(error.message).toContain(String(MAX_JSON_DEPTH));
      expect(test.runner.requests).toHaveLength(0);
      expect(test.logs.filter((line) => line.startsWith("internal error"))).toEqual([]);
    },
  );

  it(`accepts exactly ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, async () => {
    const test = await startTestGateway();
    // The body is level 1, "metadata" adds the rest.
    const within = `{"input":"hi","metadata":${objects(MAX_JSON_DEPTH - 1)}}`;
    const beyond = `{"input":"hi","metadata":${objects(MAX_JSON_DEPTH)}}`;
    expect((await test.post("/v1/responses", within)).status).toBe(200);
    const refused = await test.post("/v1/responses", beyond);
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).code).toBe("json_too_deep");
    expect(test.runner.requests).toHaveLength(1);
  });

  it("jsonDepthExceeds counts arrays and objects alike, and scalars not at all", () => {
    const probes: ReadonlyArray<readonly [unknown, number, boolean]> = [
      [1, 0, false],
      ["text", 0, false],
      [null, 0, false],
      [{}, 1, false],
      [{}, 0, true],
      [[[]], 2, false],
      [[[]], 1, true],
      [{ a: [{ b: 1 }] }, 3, false],
      [{ a: [{ b: 1 }] }, 2, true],
      [JSON.parse(arrays(1_000_000)), MAX_JSON_DEPTH, true],
      [{ wide: Array.from({ length: 10_000 }, () => ({ x: [1] })) }, 4, false],
      [{ wide: Array.from({ length: 10_000 }, () => ({ x: [1] })) }, 3, true],
    ];
    for (const [value, max, expected] of probes) expect(jsonDepthExceeds(value, max)).toBe(expected);
  });
});

describe("bad values quoted in error messages", () => {
  it("quotes at most ~200 characters of a 900,000-character type", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: [{ type: "x".repeat(900_000) }] });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.param).toBe("input[0].type");
    expect(error.message.length).toBeLessThan(MAX_QUOTED_VALUE_CHARS + 200);
    expect(error.message).toContain("(900000 characters)");
  });

  it.each([
    [
      "/v1/responses",
      { input: [{ role: "user", content: [{ type: "y".repeat(50_000) }] }] },
      "input[0].content[0].type",
    ],
    ["/v1/responses", { input: "hi", tools: [{ type: "z".repeat(50_000) }] }, "tools[0].type"],
    [
      "/v1/chat/completions",
      { messages: [{ role: "user", content: [{ type: "w".repeat(50_000) }] }] },
      "messages[0].content[0].type",
    ],
  ] as const)("caps the quoted value on %s (%#)", async (path, body, param) => {
    const test = await startTestGateway();
    const response = await test.post(path, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.param).toBe(param);
    expect(error.message.length).toBeLessThan(MAX_QUOTED_VALUE_CHARS + 200);
  });

  it("quoteValue quotes strings (cut, with their length), scalars as written, containers by kind", () => {
    expect(quoteValue("image")).toBe('"image"');
    expect(quoteValue('a"b')).toBe('"a\\"b"');
    const long = quoteValue("q".repeat(1_000));
    expect(long).toBe(`"${"q".repeat(MAX_QUOTED_VALUE_CHARS)}..." (1000 characters)`);
    expect(quoteValue(12)).toBe("12");
    expect(quoteValue(false)).toBe("false");
    expect(quoteValue(null)).toBe("null");
    expect(quoteValue([1])).toBe("an array");
    expect(quoteValue(JSON.parse(arrays(100_000)))).toBe("an array");
    expect(quoteValue({ a: 1 })).toBe("an object");
    expect(quoteValue(undefined)).toBe("undefined");
  });

  it("a non-string input item type is a 400 saying what to send", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: [{ type: 7 }] });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.param).toBe("input[0].type");
    expect(error.message).toMatch(/must be a string .*not 7/u);
  });
});
