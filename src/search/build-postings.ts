import type { CatalogEntry } from "../catalog/index.js";
import {
  BM25_K1,
  FIELD_COUNT,
  FIELD_DESCRIPTION,
  FIELD_LENGTH_NORMALISATION,
  FIELD_META,
  FIELD_NAME,
  FIELD_PARAMETERS,
  FIELD_WEIGHTS,
} from "./limits.js";
import { parameterText } from "./parameter-text.js";
import { splitWords, wordTerms } from "./tokenize.js";

/** An inverted index in compressed-row form: term `t`'s postings are `docs`/`weights` from `offsets[t]` to `offsets[t + 1]`. */
export type Postings = {
  readonly termIds: ReadonlyMap<string, number>;
  /** `termCount + 1` offsets into `docs` and `weights`. */
  readonly offsets: Uint32Array;
  /** Document numbers, ascending within a term. */
  readonly docs: Uint32Array;
  /** Saturated BM25F term weight of the term in the document: `tf~ · (k1 + 1) / (k1 + tf~)`. */
  readonly weights: Float32Array;
  /** Per term: `ln(1 + (N − df + 0.5) / (df + 0.5))`. */
  readonly idf: Float32Array;
};

/** The texts indexed for an entry, by field. Parameter text only for `native` entries: others stay opaque. */
export function entryFields(entry: CatalogEntry): string[] {
  const fields = new Array<string>(FIELD_COUNT).fill("");
  fields[FIELD_NAME] = `${entry.name}\n${entry.label}`;
  fields[FIELD_DESCRIPTION] = entry.description;
  fields[FIELD_PARAMETERS] = entry.source === "native" ? parameterText(entry.parameters) : "";
  fields[FIELD_META] = `${entry.source}\n${entry.owner}`;
  return fields;
}

/**
 * Builds the BM25F postings of `entries` (document `i` is `entries[i]`). Per-document field lengths are
 * folded into each posting's weight at build time, so a query only multiplies and adds.
 */
export function buildPostings(entries: readonly CatalogEntry[]): Postings {
  const documentCount = entries.length;
  const termIds = new Map<string, number>();
  let documentFrequency = new Uint32Array(1024);
  let slotOfTerm = new Int32Array(1024).fill(-1);
  const fieldLengths = new Float64Array(documentCount * FIELD_COUNT);
  const documentStart = new Uint32Array(documentCount + 1);
  let postingTerms = new Uint32Array(4096);
  let postingCounts = new Uint16Array(4096 * FIELD_COUNT);
  let postingCount = 0;
  const localTerms: number[] = [];
  const termIdsOfWord = new Map<string, readonly number[]>();
  const internTerm = (term: string): number => {
    let termId = termIds.get(term);
    if (termId === undefined) {
      termId = termIds.size;
      termIds.set(term, termId);
      if (termId >= slotOfTerm.length) {
        slotOfTerm = growInt32(slotOfTerm, termId + 1, -1);
        documentFrequency = growUint32(documentFrequency, termId + 1);
      }
    }
    return termId;
  };
  let localCounts = new Uint16Array(256 * FIELD_COUNT);

  for (let doc = 0; doc < documentCount; doc += 1) {
    documentStart[doc] = postingCount;
    const fields = entryFields(entries[doc]!);
    localTerms.length = 0;
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      let fieldLength = 0;
      for (const word of splitWords(fields[field]!)) {
        let wordTermIds = termIdsOfWord.get(word);
        if (wordTermIds === undefined) {
          wordTermIds = wordTerms(word).map(internTerm);
          termIdsOfWord.set(word, wordTermIds);
        }
        fieldLength += wordTermIds.length;
        for (const termId of wordTermIds) {
          let slot = slotOfTerm[termId]!;
          if (slot < 0) {
            slot = localTerms.length;
            slotOfTerm[termId] = slot;
            localTerms.push(termId);
            if ((slot + 1) * FIELD_COUNT > localCounts.length) {
              localCounts = growUint16(localCounts, (slot + 1) * FIELD_COUNT);
            }
            localCounts.fill(0, slot * FIELD_COUNT, (slot + 1) * FIELD_COUNT);
          }
          const at = slot * FIELD_COUNT + field;
          if (localCounts[at]! < 0xffff) localCounts[at]! += 1;
        }
      }
      fieldLengths[doc * FIELD_COUNT + field] = fieldLength;
    }
    if (postingCount + localTerms.length > postingTerms.length) {
      postingTerms = growUint32(postingTerms, postingCount + localTerms.length);
      postingCounts = growUint16(postingCounts, (postingCount + localTerms.length) * FIELD_COUNT);
    }
    for (let slot = 0; slot < localTerms.length; slot += 1) {
      const termId = localTerms[slot]!;
      slotOfTerm[termId] = -1;
      documentFrequency[termId]! += 1;
      postingTerms[postingCount] = termId;
      postingCounts.set(
        localCounts.subarray(slot * FIELD_COUNT, (slot + 1) * FIELD_COUNT),
        postingCount * FIELD_COUNT,
      );
      postingCount += 1;
    }
  }
  documentStart[documentCount] = postingCount;

  const termCount = termIds.size;
  const offsets = new Uint32Array(termCount + 1);
  for (let term = 0; term < termCount; term += 1)
    offsets[term + 1] = offsets[term]! + documentFrequency[term]!;
  const fill = offsets.slice(0, termCount);
  const docs = new Uint32Array(postingCount);
  const weights = new Float32Array(postingCount);
  const averageLengths = averageFieldLengths(fieldLengths, documentCount);

  for (let doc = 0; doc < documentCount; doc += 1) {
    const norms = fieldNorms(fieldLengths, doc, averageLengths);
    for (let posting = documentStart[doc]!; posting < documentStart[doc + 1]!; posting += 1) {
      let frequency = 0;
      for (let field = 0; field < FIELD_COUNT; field += 1) {
        const count = postingCounts[posting * FIELD_COUNT + field]!;
        if (count > 0) frequency += (FIELD_WEIGHTS[field]! * count) / norms[field]!;
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
  return { termIds, offsets, docs, weights, idf };
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

/** BM25 length normalisation per field: `1 − b + b · length / averageLength`. */
function fieldNorms(fieldLengths: Float64Array, doc: number, averageLengths: Float64Array): Float64Array {
  const norms = new Float64Array(FIELD_COUNT);
  for (let field = 0; field < FIELD_COUNT; field += 1) {
    const average = averageLengths[field]!;
    const b = FIELD_LENGTH_NORMALISATION[field]!;
    norms[field] = average > 0 ? 1 - b + (b * fieldLengths[doc * FIELD_COUNT + field]!) / average : 1;
  }
  return norms;
}

function growUint32(array: Uint32Array<ArrayBuffer>, minimum: number): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(Math.max(minimum, array.length * 2));
  grown.set(array);
  return grown;
}

function growUint16(array: Uint16Array<ArrayBuffer>, minimum: number): Uint16Array<ArrayBuffer> {
  const grown = new Uint16Array(Math.max(minimum, array.length * 2));
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
