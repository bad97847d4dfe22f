import type { CatalogEntry } from "../catalog/index.js";
import { addNameCoverage } from "./name-coverage.js";
import { nameEvidenceShares, nameFieldWeight } from "./name-evidence.js";
import { NamePartsBuilder } from "./name-parts.js";
import { forEachParameterText, parameterTexts } from "./parameter-text.js";
import {
  BM25_K1,
  FIELD_COUNT,
  FIELD_DESCRIPTION,
  FIELD_LENGTH_NORMALISATION,
  FIELD_META,
  FIELD_NAME,
  FIELD_PARAMETERS,
  FIELD_WEIGHTS,
} from "./ranking-parameters.js";
import { numberServers, type Servers } from "./servers.js";
import { type SharedVocabulary, vocabularyForBuild } from "./shared-vocabulary.js";

/** An inverted index in compressed-row form: term `t`'s postings are `docs`/`weights` from `offsets[t]` to `offsets[t + 1]`. */
export type Postings = {
  /** This index's term number by term text (`undefined` for a term no document has). */
  readonly termIds: TermLookup;
  /** `termCount + 1` offsets into `docs` and `weights`. */
  readonly offsets: Uint32Array;
  /** Document numbers, ascending within a term. */
  readonly docs: Uint32Array;
  /**
   * Saturated BM25F term weight of the term in the document, `tf~ · (k1 + 1) / (k1 + tf~)`, plus the name
   * coverage bonus when the term is a part of the document's name (see `addNameCoverage`).
   */
  readonly weights: Float32Array;
  /** Per term: `ln(1 + (N − df + 0.5) / (df + 0.5))`. */
  readonly idf: Float32Array;
};

/**
 * The same postings by document (a forward index): document `d`'s terms are `documentTerms` from
 * `documentStarts[d]` to `documentStarts[d + 1]`, in no particular order. Lets a query ask which of its terms a
 * few documents have without searching the term lists (see `diversify`).
 */
export type DocumentTerms = {
  readonly documentStarts: Uint32Array;
  readonly documentTerms: Uint32Array;
};

/** Term numbers by term text: a read-only view of a Map, or of the shared vocabulary. */
export type TermLookup = {
  get(term: string): number | undefined;
  /** How many terms the index has. */
  readonly size: number;
};

/** Distinct terms a document is expected to have (first guess for the posting buffers, which grow on need). */
const EXPECTED_TERMS_PER_DOCUMENT = 32;
/** Bits per field in a packed count (counts saturate at 255 occurrences per field). */
const COUNT_BITS = 8;
const COUNT_MAX = (1 << COUNT_BITS) - 1;

/** The texts indexed for an entry, by field, as separate pieces. Parameter text only for `native` entries. */
export function entryFieldTexts(entry: CatalogEntry): string[][] {
  const fields: string[][] = [[], [], [], []];
  fields[FIELD_NAME] = [entry.name, entry.label];
  fields[FIELD_DESCRIPTION] = [entry.description];
  fields[FIELD_PARAMETERS] = entry.source === "native" ? parameterTexts(entry.parameters) : [];
  fields[FIELD_META] = [entry.source, entry.owner];
  return fields;
}

/** The texts indexed for an entry, one string per field (pieces joined by line breaks). */
export function entryFields(entry: CatalogEntry): string[] {
  return entryFieldTexts(entry).map((pieces) => pieces.filter((piece) => piece.length > 0).join("\n"));
}

/**
 * Builds the BM25F postings of `entries` (document `i` is `entries[i]`), with the process's shared vocabulary
 * unless another is given. Per-document field lengths, field weights and name coverage are folded into each
 * posting's weight at build time, so a query only multiplies and adds. A server whose descriptions are documents
 * rather than lines gives its names less weight (see `nameEvidenceShares`).
 */
export function buildPostings(
  entries: readonly CatalogEntry[],
  vocabulary: SharedVocabulary = vocabularyForBuild(),
): Postings & DocumentTerms {
  const builder = new DocumentTermCounter(entries.length, vocabulary);
  for (const entry of entries) builder.addDocument(entry);
  const nameShares = builder.nameEvidenceShares(numberServers(entries));
  const postings = builder.finish(nameShares);
  addNameCoverage(postings, builder.nameParts.finish(), nameShares);
  return postings;
}

/**
 * First pass: the distinct terms of each document with their per-field counts, packed 8 bits a field. Words
 * come from the shared vocabulary as vocabulary term numbers; the index numbers its own terms `0..n-1` in
 * order of first sight.
 */
class DocumentTermCounter {
  private readonly documentCount: number;
  private readonly vocabulary: SharedVocabulary;
  /** This index's term number by vocabulary term number (-1: not met yet). */
  private termOfVocabulary: Int32Array<ArrayBuffer>;
  /** Vocabulary term number by this index's term number. */
  private readonly vocabularyOfTerm: number[] = [];
  private readonly fieldLengths: Float64Array;
  private readonly documentStart: Uint32Array;
  private documentFrequency: Uint32Array<ArrayBuffer>;
  private slotOfTerm: Int32Array<ArrayBuffer>;
  private postingTerms: Uint32Array<ArrayBuffer>;
  private postingCounts: Uint32Array<ArrayBuffer>;
  private postingCount = 0;
  private documentsAdded = 0;
  private readonly localTerms: number[] = [];
  private localCounts = new Uint32Array(256);
  /** The parts of each document's name, collected while the name is counted. */
  readonly nameParts: NamePartsBuilder;
  /** The document being counted: its parameter field length so far (for the parameter-text callback). */
  private parameterLength = 0;
  private readonly countParameterText = (text: string): void => {
    this.parameterLength += this.countText(text, FIELD_PARAMETERS);
  };

  constructor(documentCount: number, vocabulary: SharedVocabulary) {
    this.documentCount = documentCount;
    this.vocabulary = vocabulary;
    this.nameParts = new NamePartsBuilder(documentCount);
    const termCapacity = Math.max(1024, vocabulary.terms.length);
    this.termOfVocabulary = new Int32Array(termCapacity).fill(-1);
    this.slotOfTerm = new Int32Array(termCapacity).fill(-1);
    this.documentFrequency = new Uint32Array(termCapacity);
    this.fieldLengths = new Float64Array(documentCount * FIELD_COUNT);
    this.documentStart = new Uint32Array(documentCount + 1);
    this.postingTerms = new Uint32Array(Math.max(1024, documentCount * EXPECTED_TERMS_PER_DOCUMENT));
    this.postingCounts = new Uint32Array(this.postingTerms.length);
  }

  /** Counts the fields of `entry` (the texts `entryFieldTexts` lists, read without collecting them). */
  addDocument(entry: CatalogEntry): void {
    const doc = this.documentsAdded++;
    this.documentStart[doc] = this.postingCount;
    this.localTerms.length = 0;
    const lengths = this.fieldLengths;
    const at = doc * FIELD_COUNT;
    lengths[at + FIELD_NAME] =
      this.countText(entry.name, FIELD_NAME) + this.countText(entry.label, FIELD_NAME);
    this.nameParts.add(this.vocabulary.words, entry.name, this.termOfVocabulary);
    lengths[at + FIELD_DESCRIPTION] = this.countText(entry.description, FIELD_DESCRIPTION);
    this.parameterLength = 0;
    if (entry.source === "native") forEachParameterText(entry.parameters, this.countParameterText);
    lengths[at + FIELD_PARAMETERS] = this.parameterLength;
    lengths[at + FIELD_META] =
      this.countText(entry.source, FIELD_META) + this.countText(entry.owner, FIELD_META);
    this.flushDocument();
  }

  /** Counts the terms of one text into the current document; returns how many terms it has. */
  private countText(text: string, field: number): number {
    if (text.length === 0) return 0;
    const words = this.vocabulary.words;
    const wordCount = words.scan(text);
    const vocabularySize = this.vocabulary.terms.length;
    if (vocabularySize > this.termOfVocabulary.length) {
      // This index has at most as many terms as the vocabulary: sized here, `addTerm` never grows an array
      // that this loop holds.
      this.termOfVocabulary = growInt32(this.termOfVocabulary, vocabularySize, -1);
      this.slotOfTerm = growInt32(this.slotOfTerm, vocabularySize, -1);
      this.documentFrequency = growUint32(this.documentFrequency, vocabularySize);
    }
    const termOfVocabulary = this.termOfVocabulary;
    const scanned = words.scanned;
    const flatTermIds = words.flatTermIds;
    const termStarts = words.termStarts;
    const slotOfTerm = this.slotOfTerm;
    const localTerms = this.localTerms;
    const shift = field * COUNT_BITS;
    let length = 0;
    for (let index = 0; index < wordCount; index += 1) {
      const word = scanned[index]!;
      const end = termStarts[word + 1]!;
      length += end - termStarts[word]!;
      for (let at = termStarts[word]!; at < end; at += 1) {
        const vocabularyTerm = flatTermIds[at]!;
        let termId = termOfVocabulary[vocabularyTerm]!;
        if (termId < 0) termId = this.addTerm(vocabularyTerm);
        let slot = slotOfTerm[termId]!;
        if (slot < 0) {
          slot = localTerms.length;
          slotOfTerm[termId] = slot;
          localTerms.push(termId);
          if (slot >= this.localCounts.length) this.localCounts = growUint32(this.localCounts, slot + 1);
          this.localCounts[slot] = 0;
        }
        const counts = this.localCounts[slot]!;
        if (((counts >>> shift) & COUNT_MAX) < COUNT_MAX) this.localCounts[slot] = counts + (1 << shift);
      }
    }
    return length;
  }

  private flushDocument(): void {
    const localTerms = this.localTerms;
    const needed = this.postingCount + localTerms.length;
    if (needed > this.postingTerms.length) {
      this.postingTerms = growUint32(this.postingTerms, needed);
      this.postingCounts = growUint32(this.postingCounts, needed);
    }
    for (let slot = 0; slot < localTerms.length; slot += 1) {
      const termId = localTerms[slot]!;
      this.slotOfTerm[termId] = -1;
      this.documentFrequency[termId]! += 1;
      this.postingTerms[this.postingCount] = termId;
      this.postingCounts[this.postingCount] = this.localCounts[slot]!;
      this.postingCount += 1;
    }
  }

  /** Numbers a vocabulary term met for the first time in this index. */
  private addTerm(vocabularyTerm: number): number {
    const termId = this.vocabularyOfTerm.length;
    this.vocabularyOfTerm.push(vocabularyTerm);
    this.termOfVocabulary[vocabularyTerm] = termId;
    return termId;
  }

  /** Per document, the share of name evidence its server keeps (see `nameEvidenceShares`); after every document is added. */
  nameEvidenceShares(servers: Servers): Float64Array {
    return nameEvidenceShares(this.fieldLengths, servers);
  }

  /**
   * Second pass: folds length normalisation and field weights into each posting's weight (the name's weight by
   * `nameShares`, see `nameFieldWeight`) and lays postings out per term.
   */
  finish(nameShares: Float64Array): Postings & DocumentTerms {
    const { documentCount, documentStart, documentFrequency, postingTerms, postingCounts, fieldLengths } =
      this;
    documentStart[documentCount] = this.postingCount;
    const termCount = this.vocabularyOfTerm.length;
    const termIds = new VocabularyTerms(this.vocabulary, this.termOfVocabulary, termCount);
    const offsets = new Uint32Array(termCount + 1);
    for (let term = 0; term < termCount; term += 1)
      offsets[term + 1] = offsets[term]! + documentFrequency[term]!;
    const fill = offsets.slice(0, termCount);
    const docs = new Uint32Array(this.postingCount);
    const weights = new Float32Array(this.postingCount);
    const averages = averageFieldLengths(fieldLengths, documentCount);
    const fieldScale = new Float64Array(FIELD_COUNT);
    for (let doc = 0; doc < documentCount; doc += 1) {
      for (let field = 0; field < FIELD_COUNT; field += 1) {
        const weight = field === FIELD_NAME ? nameFieldWeight(nameShares[doc]!) : FIELD_WEIGHTS[field]!;
        const average = averages[field]!;
        const b = FIELD_LENGTH_NORMALISATION[field]!;
        const norm = average > 0 ? 1 - b + (b * fieldLengths[doc * FIELD_COUNT + field]!) / average : 1;
        // A field of length 0 has no counts; with b = 1 its norm is 0, and 0 · (w / 0) would be NaN.
        fieldScale[field] = norm > 0 ? weight / norm : 0;
      }
      for (let posting = documentStart[doc]!; posting < documentStart[doc + 1]!; posting += 1) {
        const counts = postingCounts[posting]!;
        let frequency = 0;
        for (let field = 0; field < FIELD_COUNT; field += 1) {
          frequency += ((counts >>> (field * COUNT_BITS)) & COUNT_MAX) * fieldScale[field]!;
        }
        const term = postingTerms[posting]!;
        const at = fill[term]!;
        fill[term] = at + 1;
        docs[at] = doc;
        weights[at] = (frequency * (BM25_K1 + 1)) / (BM25_K1 + frequency);
      }
    }
    const idf = new Float32Array(termCount);
    for (let term = 0; term < termCount; term += 1) {
      const frequency = documentFrequency[term]!;
      idf[term] = Math.log(1 + (documentCount - frequency + 0.5) / (frequency + 0.5));
    }
    return {
      termIds,
      offsets,
      docs,
      weights,
      idf,
      documentStarts: documentStart,
      documentTerms: postingTerms.slice(0, this.postingCount),
    };
  }
}

/** An index's terms as the shared vocabulary's, renumbered: no per-index map of term texts. */
class VocabularyTerms implements TermLookup {
  readonly size: number;
  private readonly numberOfTerm: ReadonlyMap<string, number>;
  private readonly termOfVocabulary: Int32Array;

  constructor(vocabulary: SharedVocabulary, termOfVocabulary: Int32Array, size: number) {
    this.numberOfTerm = vocabulary.numberOfTerm;
    this.termOfVocabulary = termOfVocabulary;
    this.size = size;
  }

  get(term: string): number | undefined {
    const number = this.numberOfTerm.get(term);
    // The vocabulary may have grown since this index was built: later numbers are not in it.
    if (number === undefined || number >= this.termOfVocabulary.length) return undefined;
    const termId = this.termOfVocabulary[number]!;
    return termId >= 0 ? termId : undefined;
  }
}

function averageFieldLengths(fieldLengths: Float64Array, documentCount: number): Float64Array {
  const averages = new Float64Array(FIELD_COUNT);
  for (let doc = 0; doc < documentCount; doc += 1) {
    for (let field = 0; field < FIELD_COUNT; field += 1)
      averages[field]! += fieldLengths[doc * FIELD_COUNT + field]!;
  }
  for (let field = 0; field < FIELD_COUNT; field += 1)
    averages[field] = averages[field]! / Math.max(1, documentCount);
  return averages;
}

function growUint32(array: Uint32Array<ArrayBuffer>, minimum: number): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(Math.max(minimum, array.length * 2));
  grown.set(array);
  return grown;
}

function growInt32(
  array: Int32Array<ArrayBuffer>,
  minimum: number,
  fillValue: number,
): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(minimum, array.length * 2)).fill(fillValue);
  grown.set(array);
  return grown;
}
