import type { StateStore } from "../state/index.js";

/** Options of openPostgresState. */
export interface PostgresStateOptions {
  /** Receives outages, recoveries and migrations, one line each. Default: dropped. */
  log?: (line: string) => void;
}

/** The StateStore of a fleet: everything in the PostgreSQL database at `url` (placeholder until merged). */
export async function openPostgresState(
  _url: string,
  _options: PostgresStateOptions = {},
): Promise<StateStore> {
  throw new Error("not yet");
}
