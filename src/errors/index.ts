export { isToolsiftError, ToolsiftError, type ToolsiftErrorCode } from "./toolsift-error.js";
