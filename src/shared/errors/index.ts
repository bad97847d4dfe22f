export { messageOf } from "./message-of.js";
export { isToolsiftError, ToolsiftError, type ToolsiftErrorCode } from "./toolsift-error.js";
