import type { ConversationItem } from "../../runtime/providers/index.js";
import { MockRequestError } from "./openai-error.js";
import type { PlannerInput } from "./plan-response.js";
import {
  contentText,
  field,
  MOCK_MODEL_ID,
  plannerInput,
  readNamespaces,
  readTools,
  requestModel,
} from "./planner-input.js";
import { joinNamespace, type NamespacedName } from "./tool-names.js";
import { type AnswerContext, usageFigures } from "./usage-figures.js";

/** A Responses API request as the mock understands it. */
export type MockTurn = {
  model: string;
  planner: PlannerInput;
  /** Functions of `namespace` tools by the joined name the planner uses (Responses only). */
  namespaces?: ReadonlyMap<string, NamespacedName>;
};

/**
 * Reads a `POST /v1/responses` body: `input` as a string or a list of message, `function_call` and
 * `function_call_output` items (other item types are skipped), and the function tools. Throws
 * MockRequestError for a body the real API would refuse too.
 */
export function readResponsesRequest(body: unknown): MockTurn {
  const input = field(body, "input");
  let items: ConversationItem[];
  if (typeof input === "string") items = [{ type: "message", role: "user", text: input }];
  else if (Array.isArray(input)) items = input.flatMap(readInputItem);
  else throw new MockRequestError("input is required: a string or a list of input items.", "input");
  const tools = field(body, "tools");
  return {
    model: requestModel(body, MOCK_MODEL_ID),
    planner: plannerInput(items, readTools(tools)),
    namespaces: readNamespaces(tools),
  };
}

function readInputItem(item: unknown, index: number): ConversationItem[] {
  const type = field(item, "type");
  const role = field(item, "role");
  if ((type === "message" || type === undefined) && (role === "user" || role === "assistant"))
    return [{ type: "message", role, text: contentText(field(item, "content")) }];
  if (type === "function_call") {
    const callId = field(item, "call_id");
    const name = field(item, "name");
    const args = field(item, "arguments");
    if (typeof callId !== "string" || typeof name !== "string")
      throw new MockRequestError(
        `input[${index}]: a function_call needs call_id and name.`,
        `input[${index}]`,
      );
    const namespace = field(item, "namespace");
    return [
      {
        type: "function_call",
        callId,
        name: typeof namespace === "string" && namespace.length > 0 ? joinNamespace(namespace, name) : name,
        arguments: typeof args === "string" ? args : "{}",
      },
    ];
  }
  if (type === "function_call_output") {
    const callId = field(item, "call_id");
    if (typeof callId !== "string")
      throw new MockRequestError(`input[${index}]: a function_call_output needs call_id.`, `input[${index}]`);
    return [{ type: "function_call_output", callId, output: outputText(field(item, "output")) }];
  }
  return [];
}

/** A call's output: a string, or its parts' text one part per line (Codex sends MCP results in parts). */
function outputText(output: unknown): string {
  if (!Array.isArray(output)) return contentText(output);
  return output.map((part) => contentText([part])).join("\n");
}

/** One output item of a mock Responses answer. */
export type MockOutputItem =
  | {
      type: "function_call";
      id: string;
      call_id: string;
      name: string;
      /** Set when the called function belongs to a declared `namespace` tool. */
      namespace?: string;
      arguments: string;
      status: "completed";
    }
  | {
      type: "message";
      id: string;
      status: "completed";
      role: "assistant";
      content: Array<{ type: "output_text"; text: string; annotations: never[] }>;
    };

/** A mock Responses answer: the same object whether sent whole or as the `response.completed` event. */
export type MockResponse = {
  id: string;
  object: "response";
  created_at: number;
  status: "completed" | "in_progress";
  error: null;
  incomplete_details: null;
  model: string;
  output: MockOutputItem[];
  output_text: string;
  parallel_tool_calls: boolean;
  store: boolean;
  usage: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  } | null;
};

/** The planned items as a Responses API answer: `output` items with ids, `output_text`, and usage. */
export function responsesAnswer(plan: readonly ConversationItem[], context: AnswerContext): MockResponse {
  const { cursor } = context;
  const output = plan.flatMap((item, index): MockOutputItem[] => {
    if (item.type === "function_call") {
      const namespaced = context.namespaces?.get(item.name);
      return [
        {
          type: "function_call",
          id: `fc_${cursor}_${index}`,
          call_id: item.callId,
          name: namespaced?.name ?? item.name,
          ...(namespaced === undefined ? {} : { namespace: namespaced.namespace }),
          arguments: item.arguments,
          status: "completed",
        },
      ];
    }
    if (item.type !== "message") return [];
    return [
      {
        type: "message",
        id: `msg_${cursor}_${index}`,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: item.text, annotations: [] }],
      },
    ];
  });
  const usage = usageFigures(plan, context.requestBytes);
  return {
    id: `resp_${cursor}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    error: null,
    incomplete_details: null,
    model: context.model,
    output,
    output_text: plan.flatMap((item) => (item.type === "message" ? [item.text] : [])).join(""),
    parallel_tool_calls: true,
    store: false,
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}
