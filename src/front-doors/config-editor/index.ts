export { applyConfigEdit } from "./apply-config-edit.js";
export { parseConfigPathExpression } from "./config-path-expression.js";
export { type EditConfigFileResult, editConfigFile, readConfigSource } from "./edit-config.js";
export type { ConfigEdit } from "./edit-config-text.js";
export { formatJson5Value } from "./format-json5-value.js";
