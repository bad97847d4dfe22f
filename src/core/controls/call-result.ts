import { safeRead } from "../../shared/schema/index.js";
import { cutText } from "../../shared/text/index.js";
import type { ToolContent, ToolResult } from "../catalog/index.js";
import { wrapUntrustedText } from "../execution/index.js";
import { MAX_CALL_DETAILS_CHARS, MAX_ENVELOPE_FIELD_CHARS } from "./limits.js";
import { modelText, toModelData } from "./model-data.js";
import type { CallEnvelope } from "./types.js";

/**
 * `tool_call`'s control result for an envelope. The text is only `{ tool: { id, name, source }, result }`
 * as compact JSON, where `result` is the target's content (images as `{ type, mimeType }`, without data),
 * details, isError and terminate as returned; the id and name are bounded so the envelope stays small
 * whatever the tool's metadata. Image blocks follow the text as image content; `details` is the whole
 * envelope; `isError` and `terminate: true` carry over from the target's result. For network-sourced
 * tools (MCP, client, native tools marked `resultSource: "network"`) `details` appear in the text as
 * wrapped untrusted content, like the content blocks the executor already wrapped. With
 * `detailsMirrorContent` (MCP results, whose `structuredContent` the server mirrors in its content blocks)
 * the text leaves `details` out when there is content, so the model reads each payload once; `details` of
 * the control result still hold everything.
 */
export function toCallResult(
  envelope: CallEnvelope,
  options: { networkSourced?: boolean; detailsMirrorContent?: boolean } = {},
): ToolResult {
  const target = envelope.result;
  const blocks = contentBlocks(safeRead(target, "content"));
  const details = safeRead(target, "details");
  const isError = safeRead(target, "isError");
  const terminate = safeRead(target, "terminate");

  const resultForModel: Record<string, unknown> = {
    content: blocks.map((block) =>
      block.type === "image" ? { type: "image", mimeType: block.mimeType } : block,
    ),
  };
  if (details !== undefined && !(options.detailsMirrorContent === true && blocks.length > 0)) {
    const data = detailsForModel(details);
    // Network-sourced details are outside text too: they reach the model wrapped like the content.
    resultForModel.details = options.networkSourced
      ? wrapUntrustedText(JSON.stringify(data) ?? "null", envelope.tool.id)
      : data;
  }
  if (typeof isError === "boolean") resultForModel.isError = isError;
  if (typeof terminate === "boolean") resultForModel.terminate = terminate;
  const text = modelText({
    tool: {
      id: cutText(envelope.tool.id, MAX_ENVELOPE_FIELD_CHARS),
      name: cutText(envelope.tool.name, MAX_ENVELOPE_FIELD_CHARS),
      source: envelope.tool.source,
    },
    result: resultForModel,
  });
  const images = blocks.filter((block) => block.type === "image");
  return {
    content: [{ type: "text", text }, ...images],
    details: envelope,
    ...(isError === true ? { isError: true } : {}),
    ...(terminate === true ? { terminate: true } : {}),
  };
}

/** Text and image blocks of a result's content, read without trusting it; anything else is left out. */
function contentBlocks(content: unknown): ToolContent[] {
  const blocks: ToolContent[] = [];
  let length: unknown;
  try {
    length = Array.isArray(content) ? content.length : 0;
  } catch {
    length = 0;
  }
  for (let index = 0; index < (typeof length === "number" ? length : 0); index += 1) {
    const block = safeRead(content, String(index));
    const type = safeRead(block, "type");
    if (type === "text") {
      const text = safeRead(block, "text");
      if (typeof text === "string") blocks.push({ type: "text", text });
    } else if (type === "image") {
      const data = safeRead(block, "data");
      const mimeType = safeRead(block, "mimeType");
      if (typeof data === "string" && typeof mimeType === "string")
        blocks.push({ type: "image", data, mimeType });
    }
  }
  return blocks;
}

function detailsForModel(details: unknown): unknown {
  const copy = toModelData(details, MAX_CALL_DETAILS_CHARS);
  return copy.ok ? copy.data : `[details not shown: ${copy.reason}]`;
}
