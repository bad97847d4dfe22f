import type { EntrySource } from "../../core/catalog/index.js";
import type { ConversationItem, ProviderUsage } from "../providers/index.js";

/** How a run ended. */
export type RunStatus = "completed" | "requires_action" | "failed" | "incomplete";

/** What a run returns. */
export interface RunResult {
  runId: string;
  agentId: string;
  sessionKey: string;
  status: RunStatus;
  /** Assistant messages and client function calls of this run, in order. */
  output: ConversationItem[];
  /** The assistant's final text (all assistant messages of the run joined). */
  text: string;
  /** `provider/model`. */
  model: string;
  usage: ProviderUsage;
  error?: { code: string; message: string };
}

/** The catalog tool a provider-level call name reached, for logs and events (absent for controls). */
export interface CallAttribution {
  toolId?: string;
  source?: EntrySource;
}

/**
 * What happens during a run, in order, for any front door to translate into its wire format: the runner's
 * loop and the run surface emit these, a buffered answer is their fold, a streaming answer their adapter.
 * Events are facts already settled (a finished call, a received text); none may be used to change the run.
 */
export type RunEvent =
  /** The run was accepted (its session log is writable, its surface open) and starts. */
  | { type: "run-start"; runId: string; agentId: string; sessionKey: string; model: string }
  /**
   * Text of the assistant, in the order the provider produced it; `turn` is the provider request it came
   * from (one assistant message per turn; it ends with that turn's `model-request-finish`).
   */
  | { type: "text-delta"; runId: string; turn: number; delta: string }
  /** One provider request finished (its usage, when the provider reported it). */
  | { type: "model-request-finish"; runId: string; turn: number; usage?: ProviderUsage }
  /** A model's tool call starts through the run surface (a control, a visible or a direct tool). */
  | ({ type: "tool-call-start"; callId: string; name: string; arguments: unknown } & CallAttribution)
  /** It finished; `output` is the text the model gets back. */
  | ({
      type: "tool-call-finish";
      callId: string;
      name: string;
      isError: boolean;
      output: string;
    } & CallAttribution)
  /** A `tool_search` ran: its queries (one for the single form) and the candidates returned in all. */
  | { type: "search-finish"; callId: string; queries: string[]; hits: number }
  /** A call to a client-declared tool, handed back to the client to answer (the run ends `requires_action`). */
  | { type: "tool-call-handoff"; runId: string; callId: string; name: string; arguments: string }
  /** The run ended; `result` is what a buffered answer returns. Always the last event. */
  | { type: "run-finish"; result: RunResult };

/** Receives run events as they happen; it must not throw (a throwing sink is ignored). */
export type RunEventSink = (event: RunEvent) => void;

/** Calls `sink` with `event`, never letting a failing sink break the run that emits it. */
export function emitRunEvent(sink: RunEventSink | undefined, event: RunEvent): void {
  if (!sink) return;
  try {
    sink(event);
  } catch {
    // A front door's sink that throws is its own defect; the run goes on and still ends with run-finish.
  }
}
