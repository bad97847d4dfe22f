import type { ConversationItem, ProviderUsage } from "./types.js";

/** What toolsift keeps of a provider's answer: the conversation items and the usage, when reported. */
export type ParsedAnswer = { output: ConversationItem[]; usage?: ProviderUsage; id?: string };

/** `{ id }` when `answer` carries a non-empty string `id` (the provider's id of its response), else `{}`. */
export function answerId(answer: unknown): { id?: string } {
  const id = readField(answer, "id");
  return typeof id === "string" && id.length > 0 ? { id } : {};
}

/** Token usage from a usage object with the given field names, when both are finite numbers. */
export function readUsage(
  usage: unknown,
  inputField: string,
  outputField: string,
): ProviderUsage | undefined {
  const inputTokens = readField(usage, inputField);
  const outputTokens = readField(usage, outputField);
  if (typeof inputTokens !== "number" || typeof outputTokens !== "number") return undefined;
  if (!Number.isFinite(inputTokens) || !Number.isFinite(outputTokens)) return undefined;
  return { inputTokens, outputTokens };
}

/**
 * The usage with `cacheReadInputTokens` from an OpenAI usage object's `<detailsField>.cached_tokens`
 * (`input_tokens_details` for Responses, `prompt_tokens_details` for Chat) when it is a count above 0 (the
 * APIs report 0 on every uncached request); the cached tokens are part of the input tokens there too.
 */
export function withCachedTokens(
  usage: ProviderUsage | undefined,
  raw: unknown,
  detailsField: string,
): ProviderUsage | undefined {
  const cached = readField(readField(raw, detailsField), "cached_tokens");
  if (usage === undefined || typeof cached !== "number" || !Number.isFinite(cached) || cached <= 0)
    return usage;
  return { ...usage, cacheReadInputTokens: cached };
}

/** One own property of a JSON value, or `undefined` when the value is not an object. */
export function readField(value: unknown, field: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined;
}

/** Function-call arguments as a JSON string: strings as sent, objects (some compatible servers) serialised. */
export function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return "{}";
}
