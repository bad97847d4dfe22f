export { collapseWhitespace, cutText, cutTextLength } from "./cut-text.js";
