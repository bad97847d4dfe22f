import type { ResolvedAgent, ToolsiftConfig } from "../config/index.js";

/**
 * Whether a run of `agent` uses Code Mode, and with which cell timeout: the config's `codeMode.enabled`, for
 * every harness but codex (Code Mode replaces the Tool Search controls, never both; the codex harness keeps
 * its own). The one rule for a run (`prepareRun`) and for every look without one (`inspectSurface`).
 */
export function codeModeFor(
  config: Pick<ToolsiftConfig, "codeMode">,
  agent: Pick<ResolvedAgent, "harness">,
): { timeoutMs?: number } | undefined {
  const codeMode = config.codeMode;
  if (codeMode?.enabled !== true || agent.harness === "codex") return undefined;
  return codeMode.timeoutMs === undefined ? {} : { timeoutMs: codeMode.timeoutMs };
}
