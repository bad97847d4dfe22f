import type { RunResult } from "../../../runtime/runner/index.js";
import { type ClientCallForms, customToolInput } from "../request/client-call-form.js";
import type { TurnRequest } from "../request/turn-request.js";
import { newId, unixSeconds } from "../response-ids.js";
import { runFailureError } from "../run-failure.js";

/** The `output_text` content part of a message item. */
export type ResponsesOutputText = { type: "output_text"; text: string; annotations: [] };

/** One output item of a Responses object (`in_progress` only inside a stream, before its `.done` event). */
export type ResponsesOutputItem =
  | {
      type: "message";
      id: string;
      role: "assistant";
      status: "in_progress" | "completed";
      content: ResponsesOutputText[];
    }
  | {
      type: "function_call";
      id: string;
      call_id: string;
      name: string;
      arguments: string;
      status: "in_progress" | "completed";
      /** The namespace the client declared the function in (`name` is then the function's own name). */
      namespace?: string;
    }
  | {
      type: "custom_tool_call";
      id: string;
      call_id: string;
      name: string;
      input: string;
      status: "in_progress" | "completed";
      namespace?: string;
    };

/** A client tool call handed back, as the run reports it: the model's name for the tool and its arguments. */
export type HandedCall = { callId: string; name: string; arguments: string };

/** The Responses `usage` object. */
export type ResponsesUsage = {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
};

/**
 * A response in the OpenAI Responses shape: the body of a `POST /v1/responses`, and the `response` of the
 * stream's lifecycle events (`in_progress` while streaming, `failed` only in a stream's `response.failed`).
 */
export type ResponsesObject = {
  id: string;
  object: "response";
  created_at: number;
  status: "in_progress" | "completed" | "incomplete" | "failed";
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
  usage: ResponsesUsage | null;
  error: { code: string; message: string } | null;
  metadata: Record<string, string>;
  /**
   * Extension, present only when it has something to say: `omitted_hosted_tools` lists the hosted tool types
   * the request declared that toolsift cannot run and left out of the model's request (`gateway.hostedTools`).
   */
  toolsift?: { omitted_hosted_tools: string[] };
};

/** Who a response is: its id and creation time, fixed when the request arrives and shared by every event. */
export type ResponseIdentity = { id: string; createdAt: number };

/** A new response identity (`resp_…`, now). */
export function newResponseIdentity(): ResponseIdentity {
  return { id: newId("resp"), createdAt: unixSeconds() };
}

/** A message item holding `text`, with its id. */
export function messageItem(
  id: string,
  text: string,
  status: "in_progress" | "completed",
): ResponsesOutputItem {
  return {
    type: "message",
    id,
    role: "assistant",
    status,
    content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [] }],
  };
}

/**
 * The output item of a client tool call handed back, with its id, in the form the client declared the tool
 * (`forms`, by the model's name for it): a `function_call` (with `namespace` and the function's own name
 * for a namespaced one) or a `custom_tool_call` whose `input` is the model's freeform text. In progress,
 * its `arguments` or `input` is empty.
 */
export function clientCallItem(
  id: string,
  call: HandedCall,
  forms: ClientCallForms | undefined,
  status: "in_progress" | "completed",
): ResponsesOutputItem {
  const form = forms?.get(call.name);
  const namespace = form?.namespace === undefined ? {} : { namespace: form.namespace };
  if (form?.kind === "custom") {
    const input = status === "in_progress" ? "" : customToolInput(call.arguments);
    return {
      type: "custom_tool_call",
      id,
      call_id: call.callId,
      name: form.name,
      input,
      status,
      ...namespace,
    };
  }
  return {
    type: "function_call",
    id,
    call_id: call.callId,
    name: form?.name ?? call.name,
    arguments: status === "in_progress" ? "" : call.arguments,
    status,
    ...namespace,
  };
}

/**
 * The output items of a run, as a whole response lists them: its assistant messages (one per turn, those
 * with text) and the client tool calls handed back, in order, each with a new id. A stream gives its items
 * ids as it opens them and passes them to `toResponsesObject` instead.
 */
export function responsesOutputItems(result: RunResult, forms?: ClientCallForms): ResponsesOutputItem[] {
  const output: ResponsesOutputItem[] = [];
  for (const item of result.output) {
    if (item.type === "message" && item.role === "assistant" && item.text !== "") {
      output.push(messageItem(newId("msg"), item.text, "completed"));
    } else if (item.type === "function_call") {
      output.push(
        clientCallItem(
          newId(forms?.get(item.name)?.kind === "custom" ? "ctc" : "fc"),
          item,
          forms,
          "completed",
        ),
      );
    }
  }
  return output;
}

/** A response that has not finished: the object of `response.created` and `response.in_progress`. */
export function inProgressResponse(
  request: TurnRequest,
  identity: ResponseIdentity,
  model: string,
): ResponsesObject {
  return {
    id: identity.id,
    object: "response",
    created_at: identity.createdAt,
    status: "in_progress",
    model,
    output: [],
    output_text: "",
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
    incomplete_details: null,
    usage: null,
    error: null,
    metadata: {},
    ...(request.omittedHostedTools === undefined
      ? {}
      : { toolsift: { omitted_hosted_tools: request.omittedHostedTools } }),
  };
}

/**
 * Renders a finished run as a Responses object with the given `output` items. A run waiting on a client
 * tool (`requires_action`) is `completed` with the `function_call` in `output`, as OpenAI answers; a failed
 * run (only a stream renders one: a whole response answers an HTTP error instead) is `failed` with `error`.
 */
export function toResponsesObject(
  result: RunResult,
  request: TurnRequest,
  options: ResponseIdentity & { output: ResponsesOutputItem[] },
): ResponsesObject {
  const response = inProgressResponse(request, options, result.model);
  response.status = responseStatus(result);
  response.output = options.output;
  response.output_text = result.text;
  if (result.status === "incomplete") response.incomplete_details = { reason: incompleteReason(result) };
  if (result.status === "failed") {
    const failure = runFailureError(result);
    response.error = { code: failure.apiCode ?? "server_error", message: failure.message };
  }
  response.usage = {
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    total_tokens: result.usage.inputTokens + result.usage.outputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  return response;
}

function responseStatus(result: RunResult): ResponsesObject["status"] {
  if (result.status === "failed") return "failed";
  return result.status === "incomplete" ? "incomplete" : "completed";
}

/** `turn_limit` for a run that hit its model-request limit; the runner's code otherwise. */
function incompleteReason(result: RunResult): string {
  return result.error?.code.toLowerCase() ?? "max_output_tokens";
}
