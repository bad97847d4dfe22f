export { migrateSchema, readSchemaStatus, type SchemaStatus } from "./migrate-schema.js";
export { MIGRATIONS, type Migration, SCHEMA_VERSION } from "./migrations.js";
export {
  checkStateUrl,
  openPostgresPool,
  type PostgresPool,
  type PostgresPoolOptions,
  redactedUrl,
} from "./open-postgres-pool.js";
export { openPostgresState, type PostgresStateOptions } from "./open-postgres-state.js";
export { createPostgresConsoleSessionStore } from "./postgres-console-sessions.js";
export { createPostgresResponseStore } from "./postgres-response-store.js";
export { createPostgresSessionStore, type PostgresSessionStoreOptions } from "./postgres-session-store.js";
export {
  type PostgresPruneReport,
  type PrunePostgresStateOptions,
  prunePostgresState,
} from "./prune-postgres-state.js";
