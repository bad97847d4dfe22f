import { expect, test } from "vitest";
import { randomHex } from "./random-hex.js";

test("randomHex gives hex of the asked length, never the same twice, across pool refills", () => {
  const seen = new Set<string>();
  // 12 bytes each: 2,000 ids cross the 4 KiB pool several times, and a refill that is not a whole number of ids.
  for (let index = 0; index < 2_000; index += 1) {
    const id = randomHex(12);
    expect(id).toMatch(/^[0-9a-f]{24}$/u);
    seen.add(id);
  }
  expect(seen.size).toBe(2_000);
  expect(randomHex(5000)).toMatch(/^[0-9a-f]{10000}$/u);
});

test("randomHex's bytes are spread over all values (not a constant or a counter)", () => {
  const counts = new Array<number>(16).fill(0);
  for (const digit of randomHex(8_192)) {
    const value = Number.parseInt(digit, 16);
    counts[value] = (counts[value] ?? 0) + 1;
  }
  // 16,384 hex digits: about 1,024 of each; a stuck or skewed source falls far outside this band.
  for (const count of counts) {
    expect(count).toBeGreaterThan(850);
    expect(count).toBeLessThan(1_200);
  }
});
