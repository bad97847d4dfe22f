export { openPostgresState, type PostgresStateOptions } from "./open-postgres-state.js";
