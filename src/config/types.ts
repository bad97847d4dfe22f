import type { ToolSearchMode } from "../directory/index.js";

/** The agent harness a run uses; it decides whether Tool Search applies at all. */
export type Harness = "embedded" | "copilot" | "codex";

/** The two Tool Search modes, as the directory renders them. */
export type { ToolSearchMode };

/** A model reference: provider id, model id, and the provider's configuration when known. */
export interface ModelReference {
  provider: string;
  id: string;
  /** The provider's configured `baseUrl`, if any. */
  baseUrl?: string;
  /** The provider's `localService` flag: `true` marks it local, `false` marks it hosted. */
  localService?: boolean;
  /** The provider's API (`openai-responses`, `openai-chat`); not used for classification. */
  api?: string;
}

/** Inputs of a run that decide how `tools.toolSearch` resolves. */
export interface ResolveToolSearchOptions {
  /** Default `"embedded"`. */
  harness?: Harness;
  /** The run's model; local models get smaller automatic limits. Default: not local. */
  model?: ModelReference;
  /** Code Mode enabled for the run; it replaces the Tool Search controls. Default `false`. */
  codeModeEnabled?: boolean;
}

/** The effective Tool Search settings of one run. */
export interface ResolvedToolSearchConfig {
  enabled: boolean;
  mode: ToolSearchMode;
  searchDefaultLimit: number;
  maxSearchLimit: number;
  /** "explicit" when the value was set, "auto" when unset. */
  origin: "explicit" | "auto";
}

/** One problem found in a `tools.toolSearch` value, as `path: message`. */
export interface ConfigIssue {
  /** Dotted config path, e.g. `tools.toolSearch.mode`. */
  path: string;
  message: string;
}
