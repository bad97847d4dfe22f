import { isObjectRecord } from "../schema/index.js";
import { invalidRequest } from "./gateway-error.js";
import { quoteValue } from "./request-fields.js";

/** Content part types that carry plain text (Responses and Chat Completions spellings). */
const TEXT_PART_TYPES: ReadonlySet<string> = new Set(["input_text", "output_text", "text", "refusal"]);

/**
 * Reads message content: a string, or an array of text parts joined with newlines.
 * Images, files and audio are refused with a 400: the gateway's agents are text-only.
 */
export function readTextContent(value: unknown, param: string): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) {
    throw invalidRequest(param, `${param} must be a string or an array of text parts.`);
  }
  const texts = value.map((part, index) => {
    const partParam = `${param}[${index}]`;
    if (!isObjectRecord(part) || typeof part.type !== "string") {
      throw invalidRequest(partParam, `${partParam} must be a content part with a type.`);
    }
    if (!TEXT_PART_TYPES.has(part.type)) {
      throw invalidRequest(
        `${partParam}.type`,
        `${partParam}.type ${quoteValue(part.type)} is not supported: send text parts ("input_text", "output_text" or "text") only.`,
        "unsupported_content",
      );
    }
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
