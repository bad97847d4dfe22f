export { formatCandidates, NO_MATCH_TEXT } from "./format-candidates.js";
export { loadCatalogFile, parseCatalogFile } from "./load-catalog-file.js";
export { runCli } from "./run-cli.js";
export type { CliIo } from "./types.js";
