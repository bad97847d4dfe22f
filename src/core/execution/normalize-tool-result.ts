import { ToolsiftError } from "../../shared/errors/index.js";
import { safeRead } from "../../shared/schema/index.js";
import type { ToolContent, ToolResult } from "../catalog/index.js";

/** Why a value is not a usable ToolResult; thrown inside `normalizeToolResult` only. */
class MalformedResult extends Error {}

function readBlock(block: unknown, index: number): ToolContent {
  if (typeof block !== "object" || block === null) {
    throw new MalformedResult(`content[${index}] is not an object`);
  }
  const type = safeRead(block, "type");
  if (type === "text") {
    const text = safeRead(block, "text");
    if (typeof text !== "string") throw new MalformedResult(`content[${index}].text is not a string`);
    return { type: "text", text };
  }
  if (type === "image") {
    const data = safeRead(block, "data");
    const mimeType = safeRead(block, "mimeType");
    if (typeof data !== "string" || typeof mimeType !== "string") {
      throw new MalformedResult(`content[${index}] is an image block without string data and mimeType`);
    }
    return { type: "image", data, mimeType };
  }
  throw new MalformedResult(`content[${index}] is neither a text nor an image block`);
}

/** Reads a field that matters for correctness: a throwing getter makes the result malformed. */
function readField(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    throw new MalformedResult(`${key} could not be read`);
  }
}

function readContent(content: unknown): ToolContent[] {
  if (content === undefined) return [];
  if (!Array.isArray(content)) throw new MalformedResult("content is not an array");
  const length = Number(safeRead(content, "length")) || 0;
  const blocks: ToolContent[] = [];
  for (let index = 0; index < length; index += 1)
    blocks.push(readBlock(safeRead(content, String(index)), index));
  return blocks;
}

function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Copies what a tool's `execute` resolved to into a fresh, well-formed ToolResult, reading each field
 * once without trusting the object (Proxies; a throwing `content` or `details` getter makes it malformed).
 * `content` may be omitted (no blocks);
 * `terminate` and `isError` are kept only when `true`. Anything else is a TOOL_FAILED error naming the
 * tool and the defect; the message never quotes the result's own text.
 */
export function normalizeToolResult(value: unknown, toolId: string): ToolResult {
  try {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new MalformedResult(`expected an object with a content array, got ${describeKind(value)}`);
    }
    const result: ToolResult = { content: readContent(readField(value, "content")) };
    const details = readField(value, "details");
    if (details !== undefined) result.details = details;
    if (safeRead(value, "terminate") === true) result.terminate = true;
    if (safeRead(value, "isError") === true) result.isError = true;
    return result;
  } catch (error) {
    const reason = error instanceof MalformedResult ? error.message : "the result could not be read";
    throw new ToolsiftError("TOOL_FAILED", `Tool "${toolId}" returned a malformed result: ${reason}.`);
  }
}
