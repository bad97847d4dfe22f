export { collapseWhitespace, cutText } from "./cut-text.js";
