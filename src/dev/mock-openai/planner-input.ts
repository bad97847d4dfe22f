import type { ConversationItem, ProviderTool } from "../../runtime/providers/index.js";
import { isObjectRecord } from "../../shared/schema/index.js";
import { MockRequestError } from "./openai-error.js";
import type { PlannerInput } from "./plan-response.js";
import { joinNamespace, type NamespacedName } from "./tool-names.js";

/** The model id the mock reports in `/v1/models` and when a request names none. */
export const MOCK_MODEL_ID = "toolsift-mock";

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
 * parameters }` (Responses) or `{ type: "function", function: { … } }` (Chat Completions), and the function
 * tools inside a Responses `namespace` tool, named `joinNamespace(namespace, name)`. Other tool types are
 * skipped; a `tools` value that is not a list is refused.
 */
export function readTools(tools: unknown): ProviderTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new MockRequestError("tools must be a list of tool objects.", "tools");
  const result: ProviderTool[] = [];
  for (const tool of tools) {
    const type = field(tool, "type");
    if (type === "namespace") {
      const namespace = field(tool, "name");
      const inner = field(tool, "tools");
      if (typeof namespace !== "string" || namespace.length === 0 || !Array.isArray(inner))
        throw new MockRequestError("a namespace tool needs a non-empty name and a list of tools.", "tools");
      for (const member of readTools(inner))
        result.push({ ...member, name: joinNamespace(namespace, member.name) });
      continue;
    }
    if (type !== "function") continue;
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

/**
 * The namespaced functions among a request's `tools`, by the joined name the planner uses, so an answer
 * names them again as `{ namespace, name }`.
 */
export function readNamespaces(tools: unknown): Map<string, NamespacedName> {
  const namespaces = new Map<string, NamespacedName>();
  if (!Array.isArray(tools)) return namespaces;
  for (const tool of tools) {
    const namespace = field(tool, "name");
    const inner = field(tool, "tools");
    if (field(tool, "type") !== "namespace" || typeof namespace !== "string" || !Array.isArray(inner))
      continue;
    for (const member of inner) {
      const name = field(member, "name");
      if (typeof name === "string") namespaces.set(joinNamespace(namespace, name), { namespace, name });
    }
  }
  return namespaces;
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
