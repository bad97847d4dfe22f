import type { RunResult } from "../runner/index.js";
import { newId, unixSeconds } from "./response-ids.js";
import type { TurnRequest } from "./turn-request.js";

/** One output item of a Responses object. */
export type ResponsesOutputItem =
  | {
      type: "message";
      id: string;
      role: "assistant";
      status: "completed";
      content: Array<{ type: "output_text"; text: string; annotations: [] }>;
    }
  | {
      type: "function_call";
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: "completed";
    };

/** The body of a successful `POST /v1/responses`, in the OpenAI Responses shape. */
export type ResponsesObject = {
  id: string;
  object: "response";
  created_at: number;
  status: "completed" | "incomplete";
  model: string;
  output: ResponsesOutputItem[];
  output_text: string;
  instructions: string | null;
  max_output_tokens: number | null;
  previous_response_id: string | null;
  tools: Array<{ type: "function"; name: string; description: string; parameters: unknown; strict: false }>;
  tool_choice: "auto";
  parallel_tool_calls: true;
  incomplete_details: { reason: string } | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens_details: { reasoning_tokens: number };
  };
  error: null;
  metadata: Record<string, string>;
};

/**
 * Renders a run that did not fail as a Responses object. A run waiting on a client tool
 * (`requires_action`) is `completed` with the `function_call` in `output`, as OpenAI answers.
 */
export function toResponsesObject(result: RunResult, request: TurnRequest, id: string): ResponsesObject {
  const output: ResponsesOutputItem[] = [];
  for (const item of result.output) {
    if (item.type === "message" && item.role === "assistant") {
      output.push({
        type: "message",
        id: newId("msg"),
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: item.text, annotations: [] }],
      });
    } else if (item.type === "function_call") {
      output.push({
        type: "function_call",
        id: newId("fc"),
        call_id: item.callId,
        name: item.name,
        arguments: item.arguments,
        status: "completed",
      });
    }
  }
  const incomplete = result.status === "incomplete";
  return {
    id,
    object: "response",
    created_at: unixSeconds(),
    status: incomplete ? "incomplete" : "completed",
    model: result.model,
    output,
    output_text: result.text,
    instructions: request.instructions ?? null,
    max_output_tokens: request.maxOutputTokens ?? null,
    previous_response_id: request.previousResponseId ?? null,
    tools: request.clientTools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    })),
    tool_choice: "auto",
    parallel_tool_calls: true,
    incomplete_details: incomplete ? { reason: incompleteReason(result) } : null,
    usage: {
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
    error: null,
    metadata: {},
  };
}

/** `turn_limit` for a run that hit its model-request limit; the runner's code otherwise. */
function incompleteReason(result: RunResult): string {
  return result.error?.code.toLowerCase() ?? "max_output_tokens";
}
