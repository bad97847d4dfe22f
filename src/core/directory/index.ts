export { directoryBudget } from "./directory-budget.js";
export { omittedLine } from "./directory-text.js";
export { renderDirectory } from "./render-directory.js";
export type { DirectoryOptions, ToolSearchMode } from "./types.js";
