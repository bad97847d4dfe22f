import * as z from "zod";
import { GatewayError, invalidRequest } from "../gateway-error.js";

/**
 * How the gateway's request schemas word their refusals. A schema's message may start with `{param}`, which
 * stands for the path of the field it checks, written as the request spells it (`input[2].content[0].type`);
 * a custom issue's `params` may name the API `code` and a `param` other than the path (a template too).
 */
const PARAM = "{param}";

/** The `params` key of an issue that carries what a reader threw other than a refusal. */
const THROWN = "thrown";

/** What a custom issue carries besides its message. */
export type IssueParams = { code?: string; param?: string };

/**
 * Parses `value` with `schema`: its output, or the 400 of the first issue (the first field, in the schema's
 * order, that is wrong). `at` is where the value sits in the request (empty for the body).
 */
export function parseRequestShape<S extends z.ZodType>(schema: S, value: unknown, at = ""): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  // A reader's own failure (not a refusal) is thrown as it was, when no earlier field was wrong.
  if (issue.code === "custom" && issue.params?.[THROWN] !== undefined) throw issue.params[THROWN];
  throw issueError(issue, at);
}

/**
 * A field read by a hand-written reader that throws the gateway's 400 (`readTextContent` and the like), as a
 * schema: the reader gets `{param}` for its field's path, and its refusal becomes the issue at that path.
 */
export function readWith<T>(reader: (value: unknown, param: string) => T) {
  // Optional in: an absent field is the reader's to refuse (it gets undefined).
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      try {
        return reader(value, PARAM);
      } catch (error) {
        if (!(error instanceof GatewayError)) {
          // Kept as an issue: a schema reads on past a wrong field, whose refusal must still come first.
          ctx.issues.push({
            code: "custom",
            message: "a reader failed",
            input: value,
            params: { [THROWN]: error },
          });
          return z.NEVER;
        }
        const params: IssueParams = {};
        if (error.param !== null) params.param = error.param;
        if (error.apiCode !== null) params.code = error.apiCode;
        ctx.issues.push({ code: "custom", message: error.message, input: value, params });
        return z.NEVER;
      }
    });
}

/** An optional (absent or null) boolean. */
export const optionalBoolean = z.boolean({ error: `${PARAM} must be true or false.` }).nullish();

/** An optional (absent or null) string. */
export const optionalString = z.string({ error: `${PARAM} must be a string.` }).nullish();

/** A required string: absent or null and a non-string are told apart. */
export const requiredString = z.string({
  error: (issue) =>
    issue.input === undefined || issue.input === null
      ? `${PARAM} is required (a string).`
      : `${PARAM} must be a string.`,
});

/** A required, non-empty id (`call_id`, `tool_call_id`). */
export const requiredId = requiredString.min(1, { error: `${PARAM} must not be empty.` });

/** An optional (absent or null) positive integer (`max_output_tokens` and the like). */
export const optionalPositiveInteger = z
  .int({ error: `${PARAM} must be a positive integer.` })
  .min(1, { error: `${PARAM} must be a positive integer.` })
  .nullish();

/** A value that, when present, must be one of `allowed` (`[]`: a field that is refused when present). */
export function onlyValues(allowed: readonly unknown[], message: string, params: IssueParams = {}) {
  return z
    .unknown()
    .refine((value) => allowed.includes(value), { error: message, params })
    .optional();
}

function issueError(issue: z.core.$ZodIssue, at: string): GatewayError {
  const path = formatPath(at, issue.path);
  const params: IssueParams = issue.code === "custom" ? (issue.params ?? {}) : {};
  const fill = (text: string) => (text.startsWith(PARAM) ? `${path}${text.slice(PARAM.length)}` : text);
  const param = params.param === undefined ? path : fill(params.param);
  return invalidRequest(param === "" ? undefined : param, fill(issue.message), params.code);
}

/** A zod path as the request spells it: `messages[3].content`. */
function formatPath(at: string, path: readonly PropertyKey[]): string {
  let written = at;
  for (const key of path) {
    if (typeof key === "number") written += `[${key}]`;
    else written += written === "" ? String(key) : `.${String(key)}`;
  }
  return written;
}
