import type { ToolDefinition } from "../../core/catalog/index.js";
import { directoryBudget } from "../../core/directory/index.js";
import { createModelTools } from "./model-tools.js";
import { renderQuickIndex } from "./quick-index.js";
import { resolveCodeModeLimits } from "./resolve-code-mode-limits.js";
import type { CodeModeOptions, CodeModeOutcome } from "./types.js";

const NO_SANDBOX: CodeModeOutcome = {
  status: "failed",
  error: {
    code: "SANDBOX_UNAVAILABLE",
    message: "This Code Mode surface is a look without a run: it starts no sandbox, so no cell can run.",
  },
  logs: [],
};

/**
 * `exec` and `wait` exactly as createCodeMode declares them for the same options (the same limits in exec's
 * description, the same quick index of `toolSearch`), for a look without a run: no child is started, and
 * calling either answers SANDBOX_UNAVAILABLE.
 */
export function declaredCodeModeTools(options: CodeModeOptions): ToolDefinition[] {
  const limits = resolveCodeModeLimits(options);
  const budget = directoryBudget(options.contextWindowTokens);
  return createModelTools({
    exec: async () => NO_SANDBOX,
    wait: async () => NO_SANDBOX,
    limits,
    quickIndex: () => renderQuickIndex(options.toolSearch.modelTools(), budget),
  });
}
