export { safeRead, safeReadString } from "./safe-read.js";
export { MAX_SCHEMA_KEY_NODES, schemaKey } from "./schema-key.js";
