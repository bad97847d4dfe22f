import * as z from "zod";
import type { ConversationItem } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { MAX_INPUT_ITEMS } from "../limits.js";
import { parseClientTools } from "../request/parse-client-tools.js";
import { readTextContent } from "../request/read-text-content.js";
import type { JsonObject } from "../request/request-fields.js";
import {
  onlyValues,
  optionalBoolean,
  optionalPositiveInteger,
  optionalString,
  parseRequestShape,
  readWith,
  requiredId,
  requiredString,
} from "../request/request-schema.js";
import { joinInstructions, NOTHING_TO_ANSWER, type TurnRequest } from "../request/turn-request.js";

/** What one message gives the run: instruction text (system, developer) or conversation items. */
type ChatEntry = { instruction: string } | { items: ConversationItem[] };

const textContent = readWith(readTextContent);

const toolCall = z
  .custom<JsonObject>((call) => isObjectRecord(call) && isObjectRecord(call.function), {
    error: '{param} must be { id, type: "function", function: { name, arguments } }.',
  })
  .pipe(
    z.object({
      type: onlyValues(["function"], '{param} must be "function".'),
      id: requiredId,
      function: z.object({ name: requiredString, arguments: requiredString }),
    }),
  )
  .transform(
    (call): ConversationItem => ({
      type: "function_call",
      callId: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    }),
  );

const message = z.discriminatedUnion(
  "role",
  [
    z
      .object({ role: z.enum(["system", "developer"]), content: textContent })
      .transform((raw): ChatEntry => ({ instruction: raw.content })),
    z
      .object({ role: z.literal("user"), content: textContent })
      .transform((raw): ChatEntry => ({ items: [{ type: "message", role: "user", text: raw.content }] })),
    z
      .object({
        role: z.literal("assistant"),
        content: readWith((value, param) =>
          value === undefined || value === null ? "" : readTextContent(value, param),
        ),
        tool_calls: z.array(toolCall, { error: "{param} must be an array." }).nullish(),
      })
      .transform((raw): ChatEntry => {
        const items: ConversationItem[] =
          raw.content === "" ? [] : [{ type: "message", role: "assistant", text: raw.content }];
        return { items: [...items, ...(raw.tool_calls ?? [])] };
      }),
    z.object({ role: z.literal("tool"), tool_call_id: requiredId, content: textContent }).transform(
      (raw): ChatEntry => ({
        items: [{ type: "function_call_output", callId: raw.tool_call_id, output: raw.content }],
      }),
    ),
  ],
  {
    error: (issue) =>
      isObjectRecord(issue.input)
        ? '{param} must be "system", "developer", "user", "assistant" or "tool".'
        : "{param} must be an object.",
  },
);

const RETIRED_FUNCTIONS = "functions and function_call are retired in the OpenAI API: send tools.";

/** A `POST /v1/chat/completions` body; fields are checked in this order, and fields not named are ignored. */
const chatBody = z.object(
  {
    stream: optionalBoolean,
    tool_choice: onlyValues(
      [null, "auto"],
      'only tool_choice "auto" is supported: the agent decides which tools to call. Omit tool_choice.',
      { code: "unsupported_parameter" },
    ),
    functions: onlyValues([], RETIRED_FUNCTIONS),
    function_call: onlyValues([], RETIRED_FUNCTIONS, { param: "functions" }),
    n: onlyValues([null, 1], "n must be 1: the gateway answers with one choice.", {
      code: "unsupported_parameter",
    }),
    messages: z
      .array(message, { error: "messages is required: an array of messages." })
      .max(MAX_INPUT_ITEMS, { error: `messages may hold at most ${MAX_INPUT_ITEMS} messages.` })
      .refine((entries) => entries.some((entry) => "items" in entry && entry.items.length > 0), {
        error: `{param} ${NOTHING_TO_ANSWER}`,
      }),
    tools: readWith(parseClientTools),
    max_completion_tokens: optionalPositiveInteger,
    max_tokens: optionalPositiveInteger,
    model: optionalString,
    stream_options: z.unknown().optional(),
  },
  { error: "the request body must be a JSON object." },
);

/** `stream_options`, read only for a streamed request. */
const streamOptions = z
  .object({ include_usage: optionalBoolean }, { error: "{param} must be an object." })
  .nullish();

/** Reads a `POST /v1/chat/completions` body into a turn request; bad input is a 400. */
export function parseChatRequest(body: unknown): TurnRequest {
  // `max_tokens` is the older name of `max_completion_tokens`: read only when the newer one is absent.
  const shadowed = isObjectRecord(body) && body.max_completion_tokens != null;
  const read = parseRequestShape(chatBody, shadowed ? { ...body, max_tokens: undefined } : body);
  const items = read.messages.flatMap((entry) => ("items" in entry ? entry.items : []));
  const request: TurnRequest = { inputParam: "messages", items, clientTools: read.tools };
  const joined = joinInstructions(
    read.messages.flatMap((entry) => ("instruction" in entry ? [entry.instruction] : [])),
  );
  if (joined !== undefined) request.instructions = joined;
  const maxOutputTokens = read.max_completion_tokens ?? read.max_tokens;
  if (maxOutputTokens != null) request.maxOutputTokens = maxOutputTokens;
  if (read.model != null) request.model = read.model;
  if (read.stream === true) {
    request.stream = true;
    const options = parseRequestShape(streamOptions, read.stream_options, "stream_options");
    if (options?.include_usage === true) request.includeUsage = true;
  }
  return request;
}
