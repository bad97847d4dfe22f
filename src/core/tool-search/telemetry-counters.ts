import { randomHex } from "../../shared/ids/index.js";
import type { CatalogSnapshot } from "../catalog/index.js";
import type { Telemetry } from "../controls/index.js";

/** Bytes of randomness in a counter scope (24 lowercase hex characters). */
const COUNTER_SCOPE_BYTES = 12;

/** Search, describe and call counters scoped to one catalog lineage. */
export class TelemetryCounters {
  private scope = newScope();
  private searches = 0;
  private describes = 0;
  private calls = 0;

  /** Adds to a counter. */
  count(kind: "search" | "describe" | "call", amount = 1): void {
    if (kind === "search") this.searches += amount;
    else if (kind === "describe") this.describes += amount;
    else this.calls += amount;
  }

  /** The catalog was replaced: a new scope, counters back to zero. */
  reset(): void {
    this.scope = newScope();
    this.searches = 0;
    this.describes = 0;
    this.calls = 0;
  }

  /** A fresh copy of the figures for this snapshot. */
  read(snapshot: CatalogSnapshot): Telemetry {
    return {
      catalogSize: snapshot.entries.length,
      sources: { ...sourceCounts(snapshot) },
      counterScope: this.scope,
      searchCount: this.searches,
      describeCount: this.describes,
      callCount: this.calls,
    };
  }
}

type SourceCounts = Telemetry["sources"];

/** Entries per source, counted once per snapshot (a snapshot never changes; a run reads them at its end). */
const countsBySnapshot = new WeakMap<CatalogSnapshot, SourceCounts>();

function sourceCounts(snapshot: CatalogSnapshot): SourceCounts {
  let counts = countsBySnapshot.get(snapshot);
  if (counts === undefined) {
    counts = { native: 0, mcp: 0, client: 0 };
    for (const entry of snapshot.entries) counts[entry.source] += 1;
    countsBySnapshot.set(snapshot, counts);
  }
  return counts;
}

function newScope(): string {
  return randomHex(COUNTER_SCOPE_BYTES);
}
