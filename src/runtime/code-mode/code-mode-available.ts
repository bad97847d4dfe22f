import { cellChildLaunch } from "./child-launch.js";
import { MIN_CELL_TIMEOUT_MS, MIN_LOG_BYTES } from "./limits.js";
import { resolveCodeModeLimits } from "./resolve-code-mode-limits.js";

/** Whether Code Mode can run here, and if not, why (for the run's log). */
export type CodeModeAvailability = { ok: true } | { ok: false; reason: string };

const PROBE_SOURCE = "return 6 * 7;";
const PROBE_VALUE = 42;

let proven: Promise<CodeModeAvailability> | undefined;

/**
 * Proves that an isolated child can be started on this machine: it starts one with the same flags as a real
 * cell (permission model, empty environment, QuickJS) and runs a one-line cell through it. A success is
 * remembered for the process; a failure is not (the next call probes again), so a passing hiccup does not
 * turn Code Mode off for good. Never rejects.
 */
export function codeModeAvailable(): Promise<CodeModeAvailability> {
  if (proven) return proven;
  const probe = runProbe();
  void probe.then((availability) => {
    if (availability.ok) proven = probe;
  });
  return probe;
}

async function runProbe(): Promise<CodeModeAvailability> {
  try {
    const limits = resolveCodeModeLimits({});
    const { CellChild } = await import("./cell-child.js");
    const child = new CellChild(await cellChildLaunch(limits));
    child.claim();
    await child.ready;
    const outcome = await child.run({
      source: PROBE_SOURCE,
      timeoutMs: MIN_CELL_TIMEOUT_MS,
      maxBridgeCalls: 1,
      maxLogBytes: MIN_LOG_BYTES,
      bridge: async () => ({
        ok: false,
        error: { code: "INTERNAL", message: "The probe cell has no bridge." },
      }),
    });
    if (outcome.status === "completed" && outcome.value === PROBE_VALUE) return { ok: true };
    const detail =
      outcome.status === "failed" ? `${outcome.error.code}: ${outcome.error.message}` : "a wrong value";
    return { ok: false, reason: `the isolated child started but its probe cell failed (${detail})` };
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? error.message : "the isolated child could not be started",
    };
  }
}
