/** Scripts written without spaces between words: their runs are segmented, not taken whole. */
export const SPACELESS_RUN =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]+/gu;

type WordSegmenter = { segment(text: string): Iterable<{ segment: string; isWordLike?: boolean }> };

let segmenter: WordSegmenter | null | undefined;

/**
 * Tokens of a run of a spaceless script (Chinese, Japanese, Thai, ...): the `Intl.Segmenter` words of the
 * run plus every character bigram of it, so a word matches whether or not the segmenter cut it out the same
 * way in the document and in the query. Without `Intl.Segmenter` the bigrams alone are used. A run of one or two
 * characters is also a token as a whole. Deterministic for a given ICU version.
 */
export function segmentSpaceless(run: string): string[] {
  const characters = Array.from(run);
  if (characters.length <= 1) return characters;
  const tokens: string[] = [];
  const words = wordSegmenter();
  if (words) {
    for (const part of words.segment(run)) {
      if (part.isWordLike !== false && part.segment.length > 0) tokens.push(part.segment);
    }
  }
  if (characters.length === 2) {
    if (!tokens.includes(run)) tokens.push(run);
    return tokens;
  }
  for (let index = 0; index + 1 < characters.length; index += 1) {
    tokens.push(`${characters[index]}${characters[index + 1]}`);
  }
  return tokens;
}

/** Overrides the word segmenter (`null`: bigrams only; `undefined`: the platform's again). For tests. */
export function setWordSegmenterForTesting(value: WordSegmenter | null | undefined): void {
  segmenter = value;
}

function wordSegmenter(): WordSegmenter | null {
  if (segmenter !== undefined) return segmenter;
  try {
    segmenter =
      typeof Intl.Segmenter === "function" ? new Intl.Segmenter("und", { granularity: "word" }) : null;
  } catch {
    segmenter = null;
  }
  return segmenter;
}
