import type { WordTable } from "./word-table.js";

/**
 * Per document, the distinct term ids of its name's parts, in name order: `getBuildingHumidity` has `get`,
 * `build`, `humiditi` (stemmed); a plain word (`translate`) is its own part. The whole compound
 * (`getbuildinghumiditi`) is left out: a query almost never types it, and the exact-name tiers cover that.
 */
export type NameParts = {
  /** `documentCount + 1` offsets into `terms`. */
  readonly offsets: Uint32Array;
  readonly terms: Uint32Array;
};

/** Collects the name parts of each document while its postings are counted (documents in order). */
export class NamePartsBuilder {
  private readonly offsets: Uint32Array;
  private terms = new Uint32Array(1024);
  private count = 0;
  private documents = 0;

  constructor(documentCount: number) {
    this.offsets = new Uint32Array(documentCount + 1);
  }

  /**
   * Adds the next document's name, scanned with the table that counted it (so each word is a hash probe).
   * A word with several terms is `[whole, ...parts]` (see `wordTerms`): its first term is skipped (for a
   * whole of over `MAX_TOKEN_CHARS`, which is dropped, that loses its first part: a rare, harmless miss).
   * `renumber` maps the table's term numbers to the index's (identity when absent).
   */
  add(words: WordTable, name: string, renumber?: Int32Array): void {
    const start = this.count;
    const wordCount = words.scan(name);
    const { scanned, flatTermIds, termStarts } = words;
    for (let index = 0; index < wordCount; index += 1) {
      const word = scanned[index]!;
      const end = termStarts[word + 1]!;
      const first = end - termStarts[word]! > 1 ? termStarts[word]! + 1 : termStarts[word]!;
      for (let at = first; at < end; at += 1) {
        const term = flatTermIds[at]!;
        this.push(renumber ? renumber[term]! : term, start);
      }
    }
    this.documents += 1;
    this.offsets[this.documents] = this.count;
  }

  /** The collected parts (the builder is spent). */
  finish(): NameParts {
    return { offsets: this.offsets, terms: this.terms.slice(0, this.count) };
  }

  /** Appends `termId` unless the current document already has it (names have a handful of parts). */
  private push(termId: number, documentStart: number): void {
    for (let at = documentStart; at < this.count; at += 1) if (this.terms[at] === termId) return;
    if (this.count >= this.terms.length) {
      const grown = new Uint32Array(this.terms.length * 2);
      grown.set(this.terms);
      this.terms = grown;
    }
    this.terms[this.count++] = termId;
  }
}
