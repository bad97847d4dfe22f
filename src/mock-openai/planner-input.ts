import type { ConversationItem, ProviderTool } from "../providers/index.js";
import { isObjectRecord } from "../schema/index.js";
import { MockRequestError } from "./openai-error.js";
import type { PlannerInput } from "./plan-response.js";

/** The planner's view of a conversation: the last user message's text and the items after it. */
export function plannerInput(
  items: readonly ConversationItem[],
  tools: readonly ProviderTool[],
): PlannerInput {
  let last = -1;
  for (const [index, item] of items.entries())
    if (item.type === "message" && item.role === "user") last = index;
  const user = items[last];
  return {
    userText: user?.type === "message" ? user.text : "",
    items: items.slice(last + 1),
    tools,
  };
}

/**
 * The function tools of a request, in either API's form: `{ type: "function", name, description,
 * parameters }` (Responses) or `{ type: "function", function: { … } }` (Chat Completions). Other tool types
 * are skipped; a `tools` value that is not a list is refused.
 */
export function readTools(tools: unknown): ProviderTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new MockRequestError("tools must be a list of tool objects.", "tools");
  const result: ProviderTool[] = [];
  for (const tool of tools) {
    if (field(tool, "type") !== "function") continue;
    const inner = field(tool, "function");
    const source = typeof inner === "object" && inner !== null ? inner : tool;
    const name = field(source, "name");
    if (typeof name !== "string" || name.length === 0)
      throw new MockRequestError("every function tool needs a non-empty name.", "tools");
    const description = field(source, "description");
    result.push({
      name,
      description: typeof description === "string" ? description : "",
      parameters: field(source, "parameters"),
    });
  }
  return result;
}

/** Text of message content: a string, or the text of its parts (`input_text`, `output_text`, `text`). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => field(part, "text"))
    .filter((text): text is string => typeof text === "string")
    .join("");
}

/** One own property of a parsed JSON value, or `undefined`. */
export function field(value: unknown, name: string): unknown {
  return isObjectRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

/** The request's model id (a default when it names none). */
export function requestModel(body: unknown, fallback: string): string {
  const model = field(body, "model");
  return typeof model === "string" && model.length > 0 ? model : fallback;
}
