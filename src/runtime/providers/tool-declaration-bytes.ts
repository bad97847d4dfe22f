import { toMessagesBody } from "./anthropic-mapping.js";
import { toChatBody } from "./chat-mapping.js";
import { toResponsesBody } from "./responses-mapping.js";
import type { ProviderSettings, ProviderTool } from "./types.js";

/**
 * The UTF-8 bytes of the `tools` field a request of `api` declares `tools` with: the very body mapping the
 * provider sends (Responses functions, Chat Completions functions, or Messages tools with the cache
 * breakpoint on the last), serialized as JSON. 0 for no tools (the field is left out).
 */
export function toolDeclarationBytes(api: ProviderSettings["api"], tools: readonly ProviderTool[]): number {
  if (tools.length === 0) return 0;
  const request = { model: "", instructions: "", input: [], tools };
  const body =
    api === "anthropic-messages"
      ? toMessagesBody(request)
      : api === "openai-chat"
        ? toChatBody(request, "max_completion_tokens")
        : toResponsesBody(request);
  return Buffer.byteLength(JSON.stringify(body.tools ?? []), "utf8");
}
