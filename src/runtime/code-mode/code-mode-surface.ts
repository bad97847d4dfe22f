import type { ToolDefinition } from "../../core/catalog/index.js";
import {
  createHostToolSearch,
  type ToolSearch,
  type ToolSearchHostOptions,
  type ToolSearchSettings,
} from "../../core/tool-search/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { type CodeModeAvailability, codeModeAvailable } from "./code-mode-available.js";
import { createCodeMode } from "./create-code-mode.js";
import { declaredCodeModeTools } from "./declared-code-mode-tools.js";
import { EXEC_TOOL_NAME, WAIT_TOOL_NAME } from "./model-tools.js";
import type { CodeMode, CodeModeOptions } from "./types.js";

/** Options of prepareCodeModeSurface. */
export interface CodeModeSurfaceOptions {
  /** The run's ToolSearch options, as for a run without Code Mode (`codeModeEnabled` is set here). */
  toolSearch: Omit<ToolSearchHostOptions, "codeModeEnabled">;
  /** `codeMode` from the config file (`enabled` is assumed true when calling this), plus library limits. */
  codeMode?: Omit<CodeModeOptions, "toolSearch">;
  /** Where the fallback reason is written, e.g. the gateway log. */
  log?: (line: string) => void;
  /** The availability check. Default codeModeAvailable. */
  available?: () => Promise<CodeModeAvailability>;
  /**
   * For a look without a run: no availability check and no sandbox child (Code Mode's tools are declared as
   * a run whose sandbox starts declares them; a call to `exec` or `wait` answers SANDBOX_UNAVAILABLE, and
   * `codeMode` is undefined). Default false.
   */
  declareOnly?: boolean;
}

/** A run's surface with Code Mode on: Code Mode and its ToolSearch, or the Tool Search `tools` fallback. */
export interface CodeModeSurface {
  /** The run's ToolSearch: with Code Mode, created with `codeModeEnabled: true`; else in `tools` mode. */
  toolSearch: ToolSearch;
  /** Undefined when the isolated child could not be started, or with `declareOnly`. */
  codeMode?: CodeMode;
  /** Why Code Mode is not offered, when it is not. */
  fallbackReason?: string;
  /**
   * The tools the provider request declares, read after the runner's addClientTools/restrict: `exec`,
   * `wait` and the direct-only tools with Code Mode; the ToolSearch's modelTools() on the fallback.
   */
  modelTools(): ToolDefinition[];
  /** Closes Code Mode (its children) and the ToolSearch. */
  close(): Promise<void>;
}

/**
 * Plans a run whose config turns Code Mode on (code-mode.md): checks that an isolated child can start; if
 * so, creates the ToolSearch with `codeModeEnabled: true` (Tool Search off, never both) and Code Mode over
 * it; if not, logs the reason and falls back to Tool Search in `tools` mode (keeping the configured search
 * limits). Throws a ToolsiftError (NAME_CONFLICT) when a direct-only tool is named `exec` or `wait`.
 */
export async function prepareCodeModeSurface(options: CodeModeSurfaceOptions): Promise<CodeModeSurface> {
  if (options.declareOnly === true) {
    const toolSearch = createHostToolSearch({ ...options.toolSearch, codeModeEnabled: true });
    return {
      toolSearch,
      modelTools: () =>
        withDirectOnly(toolSearch, declaredCodeModeTools({ ...options.codeMode, toolSearch })),
      close: async () => toolSearch.close(),
    };
  }
  const availability = await (options.available ?? codeModeAvailable)();
  if (!availability.ok) {
    const fallbackReason = `Code Mode is not available (${availability.reason}); this run uses Tool Search in tools mode instead.`;
    options.log?.(fallbackReason);
    const toolSearch = createHostToolSearch({
      ...options.toolSearch,
      settings: toolsModeSettings(options.toolSearch.settings),
    });
    return {
      toolSearch,
      fallbackReason,
      modelTools: () => toolSearch.modelTools(),
      close: async () => toolSearch.close(),
    };
  }
  const toolSearch = createHostToolSearch({ ...options.toolSearch, codeModeEnabled: true });
  const codeMode = createCodeMode({ ...options.codeMode, toolSearch });
  return {
    toolSearch,
    codeMode,
    modelTools: () => withDirectOnly(toolSearch, codeMode.modelTools()),
    close: async () => {
      await codeMode.close();
      toolSearch.close();
    },
  };
}

/** Code Mode's tools, then the direct-only tools of `toolSearch`; throws NAME_CONFLICT when one is named `exec` or `wait`. */
function withDirectOnly(toolSearch: ToolSearch, codeModeTools: ToolDefinition[]): ToolDefinition[] {
  const direct = toolSearch.modelTools().filter((tool) => safeRead(tool, "catalogMode") === "direct-only");
  const clash = direct.find((tool) => tool.name === EXEC_TOOL_NAME || tool.name === WAIT_TOOL_NAME);
  if (clash) {
    throw new ToolsiftError(
      "NAME_CONFLICT",
      `The direct-only tool "${clash.name}" clashes with Code Mode's ${clash.name} tool; rename it or turn codeMode off.`,
    );
  }
  return [...codeModeTools, ...direct];
}

/** The run's Tool Search settings forced on in `tools` mode, keeping the others (the search limits, the pins). */
function toolsModeSettings(settings: ToolSearchSettings): ToolSearchSettings {
  return Object.freeze({ ...settings, enabled: true, mode: "tools" });
}
