import * as z from "zod";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { optionalBoolean, optionalPositiveInteger, optionalString } from "../request/request-schema.js";

const optionalNumber = z.number({ error: "{param} must be a number." }).nullish();
const optionalObject = z
  .custom<Record<string, unknown>>(isObjectRecord, { error: "{param} must be an object." })
  .nullish();
const optionalStringList = z
  .custom<string[]>((value) => Array.isArray(value) && value.every((entry) => typeof entry === "string"), {
    error: "{param} must be an array of strings.",
  })
  .nullish();

/**
 * Request fields the Responses API defines that toolsift accepts and does not act on, with the kind each
 * must have when present (null counts as absent): a wrong kind is a 400 naming the field (a client bug worth
 * telling), a right one is ignored. `reasoning`, `text`, sampling and caching hints belong to the agent's
 * configured model, not the client's. Checked in this order, before `acceptedFieldDetails`.
 */
export const acceptedFields = {
  include: optionalStringList,
  prompt_cache_key: optionalString,
  prompt_cache_retention: optionalString,
  client_metadata: optionalObject,
  metadata: optionalObject,
  parallel_tool_calls: optionalBoolean,
  text: optionalObject,
  reasoning: optionalObject,
  truncation: optionalString,
  service_tier: optionalString,
  user: optionalString,
  safety_identifier: optionalString,
  top_p: optionalNumber,
  temperature: optionalNumber,
  top_logprobs: optionalNumber,
  max_tool_calls: optionalPositiveInteger,
  background: optionalBoolean,
  stream_options: optionalObject,
};

/** `tool_choice` strings; objects (`{ type: "function", name }`, `allowed_tools`, hosted forms) need a `type`. */
const TOOL_CHOICE_MODES: ReadonlySet<unknown> = new Set(["auto", "none", "required"]);

/**
 * What is checked once every accepted field has its kind: `background: true` is refused (a run is answered
 * in its own request), `text`'s own fields must have their kinds, and `tool_choice` is accepted in every form
 * (the agent decides which tools to call, so each is taken as `"auto"`). Unknown fields are not looked at.
 */
export const acceptedFieldDetails = {
  background: z
    .boolean()
    .refine((value) => value !== true, {
      error:
        "background: true is not supported: the gateway answers a run in its own request. Omit background.",
      params: { code: "unsupported_parameter" },
    })
    .nullish(),
  text: z.object({ format: optionalObject, verbosity: optionalString }).nullish(),
  tool_choice: z
    .custom(
      (choice) =>
        TOOL_CHOICE_MODES.has(choice) || (isObjectRecord(choice) && typeof choice.type === "string"),
      {
        error:
          'tool_choice must be "auto", "none", "required" or an object with a "type" (the agent decides which tools to call either way).',
      },
    )
    .nullish(),
};
