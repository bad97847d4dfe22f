import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { quoteValue } from "./request-fields.js";

/** Content part types that carry plain text (Responses and Chat Completions spellings). */
const TEXT_PART_TYPES: ReadonlySet<string> = new Set(["input_text", "output_text", "text", "refusal"]);

/**
 * Reads message content: a string, or an array of text parts joined with newlines.
 * Images, files and audio are refused with a 400: the gateway's agents are text-only.
 */
export function readTextContent(value: unknown, param: string): string {
  return readParts(value, param, "text parts", (type, partParam) => {
    throw invalidRequest(
      `${partParam}.type`,
      `${partParam}.type ${quoteValue(type)} is not supported: send text parts ("input_text", "output_text" or "text") only.`,
      "unsupported_content",
    );
  });
}

/**
 * Reads a tool output a client sends back (`function_call_output.output` and the like): a string, or an
 * array of content parts whose text parts are joined with newlines; an image, file or other non-text part
 * becomes a short note in its place (the agents are text-only, but a tool's answer is never refused for it).
 */
export function readToolOutput(value: unknown, param: string): string {
  return readParts(
    value,
    param,
    "content parts",
    (type) => `[${type.slice(0, 40)} omitted: toolsift passes text only]`,
  );
}

/** A string, or an array of typed parts: text parts as their text, others as `nonText` says; joined by newlines. */
function readParts(
  value: unknown,
  param: string,
  expected: string,
  nonText: (type: string, partParam: string) => string,
): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) {
    throw invalidRequest(param, `${param} must be a string or an array of ${expected}.`);
  }
  const texts = value.map((part, index) => {
    const partParam = `${param}[${index}]`;
    if (!isObjectRecord(part) || typeof part.type !== "string") {
      throw invalidRequest(partParam, `${partParam} must be a content part with a type.`);
    }
    if (!TEXT_PART_TYPES.has(part.type)) return nonText(part.type, partParam);
    const text = part.type === "refusal" ? part.refusal : part.text;
    if (typeof text !== "string") {
      throw invalidRequest(
        partParam,
        `${partParam} needs a string "${part.type === "refusal" ? "refusal" : "text"}".`,
      );
    }
    return text;
  });
  return texts.join("\n");
}
