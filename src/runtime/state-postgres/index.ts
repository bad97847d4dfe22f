export { migrateSchema, readSchemaStatus, type SchemaStatus } from "./migrate-schema.js";
export { MIGRATIONS, type Migration, SCHEMA_VERSION } from "./migrations.js";
export {
  checkStateUrl,
  openPostgresPool,
  type PostgresPool,
  type PostgresPoolOptions,
  redactedUrl,
} from "./open-postgres-pool.js";
