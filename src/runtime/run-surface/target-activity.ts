import type { EntrySource } from "../../core/catalog/index.js";
import type { ToolCallActivity } from "../../core/execution/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_ACTIVITY_RESULT_CHARS } from "./limits.js";
import { resultText } from "./result-text.js";

/** Display-only evidence of a target call behind `tool_call` (a `target-activity` session event's body). */
export interface TargetActivity {
  parentCallId: string;
  toolId: string;
  name: string;
  source: EntrySource;
  arguments: unknown;
  result: string;
  isError: boolean;
}

/** The activity of one finished call as display-only evidence, its result text cut to MAX_ACTIVITY_RESULT_CHARS. */
export function toTargetActivity(activity: ToolCallActivity): TargetActivity {
  return {
    parentCallId: activity.toolCallId ?? "",
    toolId: activity.entry.id,
    name: activity.entry.name,
    source: activity.entry.source,
    arguments: activity.args,
    result: cutText(resultText(activity.result), MAX_ACTIVITY_RESULT_CHARS),
    isError: activity.outcome !== "ok",
  };
}
