import { LRUCache } from "lru-cache";
import type { ApprovalLedger, ApprovalSettlement, PendingApproval } from "./types.js";

/** How many settled requests the in-memory ledger still answers `settlement()` for. */
const REMEMBERED_SETTLEMENTS = 1_000;

/**
 * The ApprovalLedger of one process (the embedded default): waiting requests in a map, the latest
 * settlements in a bounded cache, listeners told synchronously as each request is settled.
 */
export function createMemoryApprovalLedger(): ApprovalLedger {
  const waiting = new Map<string, PendingApproval>();
  const settled = new LRUCache<string, ApprovalSettlement>({ max: REMEMBERED_SETTLEMENTS });
  const listeners = new Set<(id: string, settlement: ApprovalSettlement) => void>();
  return {
    async publish(request) {
      waiting.set(request.id, { ...request });
    },
    async list() {
      return [...waiting.values()].map((request) => ({ ...request }));
    },
    async settle(id, settlement) {
      if (!waiting.delete(id)) return false;
      settled.set(id, { ...settlement });
      for (const listener of [...listeners]) {
        try {
          listener(id, { ...settlement });
        } catch {
          // A failing listener must not change the settlement or keep the others from hearing of it.
        }
      }
      return true;
    },
    async settlement(id) {
      const found = settled.get(id);
      return found === undefined ? undefined : { ...found };
    },
    onSettled(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
