import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { type JsonObject, optionalString, quoteValue, requiredString } from "../request/request-fields.js";

/** Where a content block was sent: a user message, an assistant message, or a `tool_result`'s content. */
export type BlockPlace = "user" | "assistant" | "tool_result";

/** Assistant blocks a client resends that no provider of the run could take: reasoning of an earlier answer. */
const THINKING_BLOCKS: ReadonlySet<unknown> = new Set(["thinking", "redacted_thinking"]);

/** Assistant blocks of hosted tools (besides every `…_tool_result`): calls the gateway never made. */
const HOSTED_CALL_BLOCKS: ReadonlySet<unknown> = new Set([
  "server_tool_use",
  "mcp_tool_use",
  "container_upload",
]);

/**
 * The text a non-`tool_use`/`tool_result` content block stands for in the run's conversation, or undefined
 * for a block that is dropped. The gateway's agents read text, and the rule per block type is:
 * - `text`: its text (`cache_control` and `citations` ignored);
 * - `image` (user, tool_result): the placeholder `[image omitted: …]`, never the data;
 * - `document` (user, tool_result): the text of a plain-text source (`source.type` `"text"`, or `"content"`
 *   with text blocks) under its title; any other source (PDF, URL, file) the placeholder `[document … omitted: …]`;
 * - `tool_reference` (user, tool_result): `Tool loaded: <tool_name>`, what the reference means to the model;
 * - `thinking`, `redacted_thinking` (assistant): dropped: an earlier answer's reasoning is never sent on,
 *   since the run's provider may not be the one that signed it;
 * - `server_tool_use`, `mcp_tool_use`, `container_upload` and every `…_tool_result` (assistant): dropped:
 *   hosted tools are left out of the model's request, so their history has no call to belong to.
 * Anything else is a 400 naming the block and the types accepted there.
 */
export function readContentBlock(block: JsonObject, param: string, place: BlockPlace): string | undefined {
  const type = block.type;
  if (type === "text") return requiredString(block, "text", `${param}.text`);
  if (place === "assistant") {
    if (THINKING_BLOCKS.has(type) || isHostedToolBlock(type)) return undefined;
    throw unsupported(type, param, '"text", "tool_use", "thinking" and "redacted_thinking"');
  }
  switch (type) {
    case "image":
      return "[image omitted: the toolsift gateway passes text only to the model]";
    case "document":
      return documentText(block, param);
    case "tool_reference":
      return `Tool loaded: ${requiredString(block, "tool_name", `${param}.tool_name`)}`;
    default:
      throw unsupported(
        type,
        param,
        place === "user"
          ? '"text", "tool_result", "image", "document" and "tool_reference"'
          : '"text", "image", "document" and "tool_reference"',
      );
  }
}

/** A document's text when its source is plain text (under its title, if any); else a placeholder. */
function documentText(block: JsonObject, param: string): string {
  const title = optionalString(block, "title", `${param}.title`);
  const source = block.source;
  const text = isObjectRecord(source) ? plainText(source) : undefined;
  if (text !== undefined) return title === undefined ? text : `${title}\n${text}`;
  const named = title === undefined ? "" : ` ${quoteValue(title)}`;
  return `[document${named} omitted: the toolsift gateway passes text only to the model]`;
}

/** The text of a `text` source, or of a `content` source made of a string or text blocks. */
function plainText(source: JsonObject): string | undefined {
  if (source.type === "text" && typeof source.data === "string") return source.data;
  if (source.type !== "content") return undefined;
  const content = source.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part) =>
    isObjectRecord(part) && part.type === "text" && typeof part.text === "string" ? [part.text] : [],
  );
  return texts.length === content.length ? texts.join("\n") : undefined;
}

function isHostedToolBlock(type: unknown): boolean {
  return HOSTED_CALL_BLOCKS.has(type) || (typeof type === "string" && type.endsWith("_tool_result"));
}

function unsupported(type: unknown, param: string, accepted: string) {
  return invalidRequest(
    `${param}.type`,
    `${param}.type ${quoteValue(type)} is not supported here: send ${accepted} blocks only (the gateway's agents read text).`,
    "unsupported_content",
  );
}
