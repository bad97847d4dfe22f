import { describe, expect, it } from "vitest";
import { asciiCompoundParts } from "./ascii-parts.js";
import { createVocabulary } from "./shared-vocabulary.js";
import { wordForms, wordTerms } from "./tokenize.js";

/** A deterministic pseudo-random ASCII word over letters, digits and `_`, weighted towards camelCase shapes. */
function randomWords(count: number): string[] {
  let state = 12345;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const alphabet = "aabbsesyzAABURLSXYZs019_";
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(next() * 14) },
      () => alphabet[Math.floor(next() * alphabet.length)],
    ).join(""),
  );
}

const SHAPES = [
  "getURLs",
  "XMLHttpRequest",
  "URLsomething",
  "getAValue",
  "get_weather_forecast",
  "__init__",
  "_private",
  "API2Key",
  "v2",
  "ABCs",
  "ABCsx",
  "HTTPSServer",
  "getHTTPS",
  "a_b_c",
  "Weather",
  "URL",
  "42",
  "__",
  "snake_Case_ID",
];

describe("asciiCompoundParts", () => {
  it("finds exactly the parts wordForms finds, for known shapes and 5,000 random words", () => {
    for (const word of [...SHAPES, ...randomWords(5_000)]) {
      const parts = asciiCompoundParts(word);
      const forms = wordForms(word);
      if (parts === undefined) {
        expect(forms.length <= 1, word).toBe(true);
        continue;
      }
      const pieces: string[] = [];
      for (let index = 0; index < parts.length; index += 2) {
        pieces.push(word.slice(parts[index], parts[index + 1]).toLowerCase());
      }
      expect([word.toLowerCase(), ...pieces], word).toEqual(forms);
    }
  });

  it("leaves non-ASCII words to the Unicode path", () => {
    expect(asciiCompoundParts("caféBar")).toBeUndefined();
  });
});

describe("the vocabulary's terms of a word", () => {
  it("are wordTerms, whether a compound's parts were known before or not", () => {
    const words = [...SHAPES, ...randomWords(2_000)];
    for (const order of [words, [...words].reverse()]) {
      const vocabulary = createVocabulary();
      for (const word of order) {
        const count = vocabulary.words.scan(word);
        const { scanned, termStarts, flatTermIds } = vocabulary.words;
        const terms: string[] = [];
        for (let index = 0; index < count; index += 1) {
          const number = scanned[index]!;
          for (let at = termStarts[number]!; at < termStarts[number + 1]!; at += 1) {
            terms.push(vocabulary.terms[flatTermIds[at]!]!);
          }
        }
        expect(terms, word).toEqual(wordTerms(word));
      }
    }
  });
});
