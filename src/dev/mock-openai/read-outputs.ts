import { isObjectRecord } from "../../shared/schema/index.js";

/** What the planner learned from one call's output: the text to report, and whether it is an error. */
export type OutputReading = { ok: boolean; text: string };

/** A search hit as far as the planner needs it. */
export type FoundTool = { id: string; input: string };

/** One group of search hits, with the query it answers when the output says so. */
export type FoundGroup = { query?: string; candidates: FoundTool[] };

/**
 * The groups of a `tool_search` output: a candidate array (single query) or `{ results: [{ query,
 * candidates }] }` (batch). Anything else (a control's plain-text error message, an error object) is an error.
 */
export function readSearchOutput(
  output: string,
): { ok: true; groups: FoundGroup[] } | { ok: false; text: string } {
  const data = parseJson(output);
  if (Array.isArray(data)) return { ok: true, groups: [{ candidates: foundTools(data) }] };
  const results = field(data, "results");
  if (Array.isArray(results)) {
    const groups = results.map((result): FoundGroup => {
      const query = field(result, "query");
      const candidates = field(result, "candidates");
      const tools = foundTools(Array.isArray(candidates) ? candidates : []);
      return typeof query === "string" ? { query, candidates: tools } : { candidates: tools };
    });
    return { ok: true, groups };
  }
  return { ok: false, text: errorText(data, output) };
}

/** The `parameters` of a `tool_describe` output, or the error it reports instead. */
export function readDescribeOutput(
  output: string,
): { ok: true; parameters: unknown } | { ok: false; text: string } {
  const data = parseJson(output);
  if (isObjectRecord(data) && Object.hasOwn(data, "parameters") && !isErrorObject(data))
    return { ok: true, parameters: data.parameters };
  return { ok: false, text: errorText(data, output) };
}

/**
 * The text of a `tool_call` output: the envelope `{ tool, result: { content: [...] } }` gives its text blocks
 * (an error when `result.isError` is true); anything that is not an envelope is the control's error text.
 */
export function readCallOutput(output: string): OutputReading {
  const data = parseJson(output);
  const result = field(data, "result");
  if (!isObjectRecord(result) || isErrorObject(data)) return { ok: false, text: errorText(data, output) };
  const text = contentText(result.content) ?? output.trim();
  return { ok: result.isError !== true, text };
}

/** Whether an output is toolsift's `tool_call` envelope (`{ tool, result: { … } }`). */
export function isCallEnvelope(output: string): boolean {
  return isObjectRecord(field(parseJson(output), "result"));
}

/**
 * The text of a direct tool's output: plain text as it is; a JSON tool result (`{ content, isError }`) gives
 * its text blocks; a JSON error object (`{ error }`, `{ isError: true }`) is an error.
 */
export function readDirectOutput(output: string): OutputReading {
  const data = parseJson(output);
  if (isErrorObject(data)) return { ok: false, text: errorText(data, output) };
  if (isObjectRecord(data)) {
    const text = contentText(data.content);
    if (text !== undefined) return { ok: data.isError !== true, text };
  }
  return { ok: true, text: output.trim() };
}

function foundTools(candidates: readonly unknown[]): FoundTool[] {
  const tools: FoundTool[] = [];
  for (const candidate of candidates) {
    const id = field(candidate, "id");
    const input = field(candidate, "input");
    if (typeof id === "string") tools.push({ id, input: typeof input === "string" ? input : "unknown" });
  }
  return tools;
}

function contentText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter((block) => field(block, "type") === "text" && typeof field(block, "text") === "string")
    .map((block) => field(block, "text") as string);
  return texts.join(" ");
}

/** An output that says it failed: `isError: true`, an `error` field, or `details.error`. */
function isErrorObject(data: unknown): boolean {
  if (!isObjectRecord(data)) return false;
  return data.isError === true || data.error !== undefined || field(data.details, "error") !== undefined;
}

/** The message of an error output: `error.message`, `error` as text, text blocks, else the raw output. */
function errorText(data: unknown, output: string): string {
  const error = field(data, "error") ?? field(field(data, "details"), "error");
  const message = typeof error === "string" ? error : field(error, "message");
  if (typeof message === "string" && message.trim().length > 0) return message.trim();
  const text = isObjectRecord(data) ? contentText(data.content) : undefined;
  return text !== undefined && text.length > 0 ? text : output.trim();
}

/**
 * The JSON value of an output: the whole text, else the text from its first line that opens a JSON array or
 * object (Codex relays an MCP result after a `Wall time: …` / `Output:` preamble).
 */
function parseJson(text: string): unknown {
  const whole = tryParse(text);
  if (whole !== undefined) return whole;
  const opening = /^[[{]/mu.exec(text);
  return opening === null || opening.index === 0 ? undefined : tryParse(text.slice(opening.index));
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function field(value: unknown, name: string): unknown {
  return isObjectRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}
