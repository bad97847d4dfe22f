export { isObjectRecord, isPlainObject, safeRead, safeReadString } from "./object-checks.js";
export { schemaKey } from "./schema-key.js";
