export { isObjectRecord } from "./is-object-record.js";
export { isPlainObject } from "./is-plain-object.js";
export { safeRead, safeReadString } from "./safe-read.js";
export { schemaKey } from "./schema-key.js";
