export { createToolSearch } from "./create-tool-search.js";
export type { ToolSearch, ToolSearchOptions } from "./types.js";
export { modelToolEntry } from "./wrap-for-model.js";
