export { buildPostings, entryFields } from "./build-postings.js";
export { catalogHasScript, nearCatalogWords, queryWordCoverage } from "./query-word-coverage.js";
export { createSearchIndex, type SearchIndex } from "./search-index.js";
export { createVocabulary } from "./shared-vocabulary.js";
export { tokenize } from "./tokenize.js";
