import { SETTLED_APPROVAL_KEEP_MS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";

/**
 * Removes approval requests settled or expired more than SETTLED_APPROVAL_KEEP_MS ago (by the database's
 * clock): a pending request is never removed, and a recent settlement is kept for the run that reads it.
 * Returns how many rows went.
 */
export async function forgetSettledApprovals(db: PostgresPool): Promise<number> {
  const result = await db.query(
    "forgetting settled approvals",
    `DELETE FROM toolsift_approvals
      WHERE coalesce(decided_at, expires_at) < clock_timestamp() - make_interval(secs => $1::double precision / 1000)`,
    [SETTLED_APPROVAL_KEEP_MS],
  );
  return result.rowCount ?? 0;
}
