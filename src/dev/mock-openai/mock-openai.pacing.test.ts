import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { PIECE_DELAY_ENV, startMockOpenAI } from "./start-mock-openai.js";
import type { MockOpenAI } from "./types.js";

// The piece delay (for benchmarks): only lower bounds are asserted, so a slow machine never fails these.
const DELAY_MS = 25;
/** `mock: one two three four` is five word pieces. */
const INPUT = "one two three four";
const PIECES = 5;

let paced: MockOpenAI;

beforeAll(async () => {
  paced = await startMockOpenAI({ pieceDelayMs: DELAY_MS });
});

afterAll(async () => {
  await paced.close();
});

/** Posts a streaming request and notes when each text delta arrived, in ms after the request was sent. */
async function deltaTimes(mock: MockOpenAI, path: string, body: unknown): Promise<number[]> {
  const sentAt = performance.now();
  const response = await fetch(`${mock.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const times: number[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    const blocks = buffered.split("\n\n");
    buffered = blocks.pop() ?? "";
    for (const block of blocks)
      if (/output_text\.delta|"content":"[^"]/u.test(block)) times.push(performance.now() - sentAt);
  }
  return times;
}

describe("the mock's piece delay", () => {
  it.each([
    ["/responses", { model: "m", input: INPUT, stream: true }],
    ["/chat/completions", { model: "m", messages: [{ role: "user", content: INPUT }], stream: true }],
  ])("spaces out the text deltas of a stream (%s)", async (path, body) => {
    const times = await deltaTimes(paced, path, body);
    expect(times).toHaveLength(PIECES);
    // The n-th piece is due n delays after the answer began.
    for (const [index, time] of times.entries())
      expect(time).toBeGreaterThanOrEqual((index + 1) * DELAY_MS - 2);
  });

  it("holds a whole answer for the sum of its pieces' delays", async () => {
    const started = performance.now();
    const response = await fetch(`${paced.baseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", input: INPUT }),
    });
    expect(((await response.json()) as { output_text: string }).output_text).toBe(`mock: ${INPUT}`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(PIECES * DELAY_MS - 2);
  });

  it(`is read from ${PIECE_DELAY_ENV} when no option is given, and refused when it is not a delay`, async () => {
    const before = process.env[PIECE_DELAY_ENV];
    try {
      process.env[PIECE_DELAY_ENV] = String(DELAY_MS);
      const fromEnv = await startMockOpenAI();
      try {
        const times = await deltaTimes(fromEnv, "/responses", { model: "m", input: INPUT, stream: true });
        expect(times.at(-1)).toBeGreaterThanOrEqual(PIECES * DELAY_MS - 2);
      } finally {
        await fromEnv.close();
      }
      for (const bad of ["soon", "-1", "100000"]) {
        process.env[PIECE_DELAY_ENV] = bad;
        const refused = await startMockOpenAI().then(
          async (mock) => {
            await mock.close();
            return undefined;
          },
          (error: unknown) => error,
        );
        expect(isToolsiftError(refused) && refused.code).toBe("INVALID_REQUEST");
        expect(String((refused as Error).message)).toContain(`${PIECE_DELAY_ENV}) must be a number`);
        expect(String((refused as Error).message)).toContain(`got "${bad}"`);
      }
    } finally {
      if (before === undefined) delete process.env[PIECE_DELAY_ENV];
      else process.env[PIECE_DELAY_ENV] = before;
    }
  });
});
