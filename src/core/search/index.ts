export { analyzeQuery, analyzeSentences, type QueryTerm } from "./analyze-query.js";
export { buildPostings, entryFields, type Postings } from "./build-postings.js";
export { EXPANSION_GROUPS, type ExpansionGroup } from "./expansion-groups.js";
export { LEXICON_GROUPS, type LexiconGroup } from "./lexicon-groups.js";
export { parameterText } from "./parameter-text.js";
export {
  catalogHasScript,
  nearCatalogWords,
  type QueryWordCoverage,
  queryWordCoverage,
} from "./query-word-coverage.js";
export { createSearchIndex, type SearchIndex } from "./search-index.js";
export { createVocabulary, type SharedVocabulary } from "./shared-vocabulary.js";
export { stem } from "./stem.js";
export { STOPWORDS } from "./stopwords.js";
export { splitWords, tokenize, wordForms } from "./tokenize.js";
