export { createToolSearch } from "./create-tool-search.js";
export type { ToolSearch, ToolSearchOptions } from "./types.js";
