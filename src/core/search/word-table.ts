import { FNV_OFFSET, FNV_PRIME, fnvHash } from "./fnv-hash.js";
import { splitWords } from "./tokenize.js";

const EMPTY_SLOT = -1;

/**
 * Interns the words of indexed texts while they are scanned, so a word seen before costs one hash probe and no
 * string allocation; each distinct word is tokenised once (by `termIdsOf`). Used only while building postings.
 * ASCII text is scanned in place; other text goes through `splitWords` (NFKC, Unicode classes) first.
 */
export class WordTable {
  private readonly termIdsOf: (word: string) => readonly number[];
  private slots = new Int32Array(1 << 14).fill(EMPTY_SLOT);
  private words: string[] = [];
  private hashes = new Int32Array(1 << 13);
  private termStart = new Uint32Array((1 << 13) + 1);
  private termIds = new Uint32Array(1 << 14);
  private wordBuffer = new Uint32Array(1024);

  constructor(termIdsOf: (word: string) => readonly number[]) {
    this.termIdsOf = termIdsOf;
  }

  /** How many distinct words the table holds. */
  get size(): number {
    return this.words.length;
  }

  /** The text of word number `word` (as first met: case kept, NFKC-normalised when it is not ASCII). */
  wordAt(word: number): string {
    return this.words[word]!;
  }

  /** The flat term-id array; a word's ids are `termIds[termStart[word] .. termStart[word + 1])`. */
  get flatTermIds(): Uint32Array {
    return this.termIds;
  }

  /** Start offsets into `flatTermIds`, by word number (one more entry than words). */
  get termStarts(): Uint32Array {
    return this.termStart;
  }

  /** The word numbers found by the last `scan`, in order (a buffer reused by the next call). */
  get scanned(): Uint32Array {
    return this.wordBuffer;
  }

  /** Scans `text` into `scanned`; returns how many words it has. */
  scan(text: string): number {
    let count = 0;
    let start = -1;
    let hash = 0;
    const length = text.length;
    for (let index = 0; index < length; index += 1) {
      const code = text.charCodeAt(index);
      if (code >= 128) return this.scanUnicode(text);
      if (ASCII_WORD_CODES[code] === 1) {
        if (start < 0) {
          start = index;
          hash = FNV_OFFSET;
        }
        hash = Math.imul(hash ^ code, FNV_PRIME);
      } else if (start >= 0) {
        count = this.push(count, this.find(text, start, index, hash));
        start = -1;
      }
    }
    if (start >= 0) count = this.push(count, this.find(text, start, length, hash));
    return count;
  }

  /** Text with non-ASCII characters: NFKC and Unicode word classes (`splitWords`), then the same table. */
  private scanUnicode(text: string): number {
    let count = 0;
    for (const word of splitWords(text))
      count = this.push(count, this.find(word, 0, word.length, fnvHash(word)));
    return count;
  }

  private push(count: number, word: number): number {
    if (count >= this.wordBuffer.length) this.wordBuffer = grow(this.wordBuffer, count + 1);
    this.wordBuffer[count] = word;
    return count + 1;
  }

  /** The number of the word `text[start..end)` with this hash, adding it on first sight. */
  /**
   * The number of the word `text[start..end)` (ASCII word characters only), adding it on first sight. The
   * tokeniser callback may call it for the parts of the word it is tokenising (never for the word itself).
   */
  lookup(text: string, start: number, end: number): number {
    return this.find(text, start, end, fnvHash(text, start, end));
  }

  private find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const word = this.slots[slot]!;
      if (word === EMPTY_SLOT) return this.add(text.slice(start, end), hash);
      if (this.hashes[word] === hash && sameText(this.words[word]!, text, start, end)) return word;
    }
  }

  private add(text: string, hash: number): number {
    // Tokenised first: the callback may add other words (a compound's parts), so the number and the slot of
    // this word are taken only afterwards.
    const ids = this.termIdsOf(text);
    const word = this.words.length;
    if (word + 2 > this.hashes.length) {
      this.hashes = growInt32(this.hashes, word + 2);
      this.termStart = grow(this.termStart, word + 2);
    }
    const start = this.termStart[word]!;
    if (start + ids.length > this.termIds.length) this.termIds = grow(this.termIds, start + ids.length);
    for (let index = 0; index < ids.length; index += 1) this.termIds[start + index] = ids[index]!;
    this.termStart[word + 1] = start + ids.length;
    this.words.push(text);
    this.hashes[word] = hash;
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
    this.slots[slot] = word;
    if (this.words.length * 2 > this.slots.length) this.rehash();
    return word;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY_SLOT);
    const mask = slots.length - 1;
    for (let word = 0; word < this.words.length; word += 1) {
      let slot = this.hashes[word]! & mask;
      while (slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      slots[slot] = word;
    }
    this.slots = slots;
  }
}

/** 1 for the ASCII codes of word characters: letters, digits and `_` (as `splitWords` has them). */
const ASCII_WORD_CODES = Uint8Array.from({ length: 128 }, (_, code) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95
    ? 1
    : 0,
);

function sameText(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let index = 0; index < word.length; index += 1) {
    if (word.charCodeAt(index) !== text.charCodeAt(start + index)) return false;
  }
  return true;
}

function grow(array: Uint32Array<ArrayBuffer>, minimum: number): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(Math.max(minimum, array.length * 2));
  grown.set(array);
  return grown;
}

function growInt32(array: Int32Array<ArrayBuffer>, minimum: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(minimum, array.length * 2));
  grown.set(array);
  return grown;
}
