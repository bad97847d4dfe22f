import { SESSION_WATCH_CHECK_MS, SESSION_WATCH_LOCK } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { NOTIFY_CHANNELS, type PostgresListener } from "./postgres-listener.js";

/** Whether appends should announce themselves: some process of the fleet follows sessions live. */
export interface SessionWatch {
  /**
   * True while some process followed sessions live at the last look (no older than `checkMs`; an older
   * answer is still given, and a new look starts in the background). True until the first look answers.
   */
  wanted(): boolean;
  /** This process starts (or stops) following sessions live. */
  watching(on: boolean): void;
}

/**
 * A process that follows sessions live (a console's live view, through `onAppended`) holds a shared advisory
 * lock (`SESSION_WATCH_LOCK`) on its LISTEN connection, and announces it on `toolsift_session_watched` when
 * it takes it. An appender looks whether anyone holds it (one statement, `pg_try_advisory_xact_lock`, which
 * fails while a shared holder exists) at most every `checkMs`, when it appends; an announcement turns it on
 * at once. So a fleet where no console is open sends no NOTIFY on appends, and a live view opened on one
 * gateway wakes on every other's appends from then on. A look that fails answers true (notify: the cost of a
 * spurious notification is one read). A second appender looking at the same instant may see the first's
 * look as a holder: it notifies for one `checkMs` more, nothing worse.
 */
export function createSessionWatch(
  db: PostgresPool,
  listener: PostgresListener,
  options: { checkMs?: number } = {},
): SessionWatch {
  const checkMs = options.checkMs ?? SESSION_WATCH_CHECK_MS;
  let watched = true;
  let lookedAt = Number.NEGATIVE_INFINITY;
  let looking = false;
  const look = async () => {
    looking = true;
    try {
      const result = await db.query<{ free: boolean }>(
        "looking whether a live view is open",
        "SELECT pg_try_advisory_xact_lock($1, $2) AS free",
        [...SESSION_WATCH_LOCK],
      );
      watched = result.rows[0]?.free !== true;
    } catch {
      watched = true;
    } finally {
      lookedAt = performance.now();
      looking = false;
    }
  };
  listener.subscribe(NOTIFY_CHANNELS.sessionWatched, () => {
    watched = true;
    lookedAt = performance.now();
  });
  return {
    wanted() {
      if (!looking && performance.now() - lookedAt >= checkMs) void look();
      return watched;
    },
    watching(on) {
      listener.holdShared(SESSION_WATCH_LOCK, on, NOTIFY_CHANNELS.sessionWatched);
    },
  };
}
