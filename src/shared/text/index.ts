export { collapseWhitespace, cutText, cutTextLength } from "./cut-text.js";
export { describeValue } from "./describe-value.js";
export { escapeControlCharacters } from "./escape-control-characters.js";
export { LONGEST_SHOWN_VALUE } from "./limits.js";
