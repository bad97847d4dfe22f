import type { ConversationItem, ProviderUsage } from "./types.js";

/** What toolsift keeps of a provider's answer: the conversation items and the usage, when reported. */
export type ParsedAnswer = { output: ConversationItem[]; usage?: ProviderUsage };

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
