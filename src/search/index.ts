export { analyzeQuery, analyzeSentences, type QueryTerm } from "./analyze-query.js";
export { entryFields } from "./build-postings.js";
export { EXPANSION_GROUPS, type ExpansionGroup } from "./expansion-groups.js";
export {
  BM25_K1,
  EXPANSION_WEIGHT,
  FIELD_LENGTH_NORMALISATION,
  FIELD_WEIGHTS,
  MAX_PARAMETER_TEXT_CHARS,
  MAX_QUERY_SENTENCES,
  MAX_QUERY_TERMS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  MAX_TOKEN_CHARS,
  SENTENCE_FLOOR,
  SENTENCE_POWER,
} from "./limits.js";
export { parameterText } from "./parameter-text.js";
export { createSearchIndex, type SearchIndex } from "./search-index.js";
export { searchIndexFor } from "./search-index-for.js";
export { stem } from "./stem.js";
export { STOPWORDS } from "./stopwords.js";
export { splitWords, tokenize, wordForms } from "./tokenize.js";
