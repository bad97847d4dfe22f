export { directoryBudget } from "./directory-budget.js";
export {
  DIRECTORY_EMPTY,
  DIRECTORY_FOOTER,
  DIRECTORY_HEADING,
  DIRECTORY_INTRO,
  NO_DESCRIPTION,
  omittedLine,
  UNTRUSTED_TOOLS_LINE,
} from "./directory-text.js";
export { DEFAULT_DIRECTORY_BUDGET, MAX_LISTED_NAME_CHARS, MIN_DIRECTORY_BUDGET } from "./limits.js";
export { DIRECTORY_DESCRIPTION_CUTS, renderDirectory } from "./render-directory.js";
export type { DirectoryOptions, ToolSearchMode } from "./types.js";
