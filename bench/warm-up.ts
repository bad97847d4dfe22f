import { performance } from "node:perf_hooks";

/** The longest a warm-up may search: a slow engine is warm long before it has run every query. */
const WARM_UP_BUDGET_MS = 5_000;

/**
 * Runs `search` over the queries once, or until `WARM_UP_BUDGET_MS` have passed, so latencies are measured
 * on compiled code in a steady state (the same rule for every engine).
 */
export function warmUp(search: (query: string) => unknown, queries: readonly string[]): void {
  const start = performance.now();
  for (const query of queries) {
    search(query);
    if (performance.now() - start > WARM_UP_BUDGET_MS) return;
  }
}
