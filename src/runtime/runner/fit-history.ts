import type { ConversationItem, ProviderTool } from "../providers/index.js";

/** Context window assumed for an agent without `contextWindowTokens`, in tokens (history is fitted to it). */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 128_000;
/**
 * UTF-8 bytes counted as one token when estimating request size. Conservative on purpose: English prose runs
 * about 4 bytes a token, JSON and code about 3, CJK text about 3 (one character, three bytes).
 */
const ESTIMATED_BYTES_PER_TOKEN = 3;
/** Tokens counted for each conversation item's own framing (type, role, call id) beside its text. */
const ITEM_OVERHEAD_TOKENS = 8;
/** Tokens kept free for the answer when the request sets no `maxOutputTokens` (at most a quarter of the window). */
export const DEFAULT_OUTPUT_RESERVE_TOKENS = 8_192;
/** Share of the context window the default output reserve may take at most. */
const MAX_OUTPUT_RESERVE_SHARE = 0.25;
/** Old tool outputs at most this long are kept as they are: replacing them would save next to nothing. */
const MIN_SHORTENED_OUTPUT_CHARS = 200;

/** What the history budget is derived from: the model's window, the stable prefix and the answer's room. */
export type HistoryBudgetOptions = {
  /** The agent's context window. Default 128,000 (`DEFAULT_CONTEXT_WINDOW_TOKENS`). */
  contextWindowTokens?: number | undefined;
  /** The system prompt (instructions with the directory), sent whole with every request. */
  systemPrompt: string;
  /** The declared tools, sent whole with every request. */
  tools: readonly ProviderTool[];
  /** Room kept for the answer. Default 8,192 tokens, at most a quarter of the window. */
  maxOutputTokens?: number | undefined;
};

/** Where the current turn starts, and the budget (`historyBudgetTokens`) the items must fit in. */
export type FitHistoryOptions = {
  /** Estimated tokens the conversation may take. */
  budgetTokens: number;
  /** Index of the current turn's first item: it and everything after it are always sent. */
  keepFrom: number;
};

/** What `fitHistory` removed, for the log. */
export type HistoryTrim = {
  /** Items dropped or shortened. */
  items: number;
  /** Characters of text they no longer carry. */
  chars: number;
  /** Items of whole earlier turns dropped. */
  droppedItems: number;
  /** Old tool outputs replaced by a marker. */
  shortenedOutputs: number;
};

/** The conversation to send, and what was trimmed from it (absent when it fitted as it was). */
export type FittedHistory = { items: ConversationItem[]; trimmed?: HistoryTrim };

/**
 * Estimated tokens left for the conversation: the context window, less the answer's room, less the stable
 * prefix (system prompt and declared tools, which are never trimmed). May be 0: then only the current turn
 * is sent.
 */
export function historyBudgetTokens(options: HistoryBudgetOptions): number {
  const window =
    options.contextWindowTokens !== undefined && options.contextWindowTokens > 0
      ? options.contextWindowTokens
      : DEFAULT_CONTEXT_WINDOW_TOKENS;
  const outputReserve =
    options.maxOutputTokens ??
    Math.min(DEFAULT_OUTPUT_RESERVE_TOKENS, Math.floor(window * MAX_OUTPUT_RESERVE_SHARE));
  const prefix = estimateRequestTokens({
    systemPrompt: options.systemPrompt,
    tools: options.tools,
    items: [],
  });
  return Math.max(0, window - outputReserve - prefix);
}

/**
 * Estimated input tokens of a whole model request, by the estimate the history budget uses: the system
 * prompt, the declared tools as JSON, and each item (its text plus `ITEM_OVERHEAD_TOKENS`).
 */
export function estimateRequestTokens(request: {
  systemPrompt: string;
  tools: readonly ProviderTool[];
  items: readonly ConversationItem[];
}): number {
  const prefix = estimateTokens(request.systemPrompt) + estimateTokens(JSON.stringify(request.tools));
  return request.items.reduce((sum, item) => sum + itemTokens(item), prefix);
}

/**
 * Fits a conversation into `budgetTokens`, never touching the current turn (from `keepFrom` on, widened to
 * the start of the turn holding any call the current turn answers). First old tool outputs are replaced by a
 * short marker, oldest first; if that is not enough, whole earlier turns are dropped, oldest first. A turn
 * starts at a user message, and never between a `function_call` and its output, so no call is sent without
 * its output or the reverse. The items passed in are never changed.
 */
export function fitHistory(items: readonly ConversationItem[], options: FitHistoryOptions): FittedHistory {
  // Quick pass: a UTF-16 unit is at most 3 UTF-8 bytes, so characters bound the estimate from above.
  const bound = items.reduce(
    (sum, item) => sum + ITEM_OVERHEAD_TOKENS + Math.ceil((itemChars(item) * 3) / ESTIMATED_BYTES_PER_TOKEN),
    0,
  );
  if (bound <= options.budgetTokens) return { items: [...items] };
  const sizes = items.map(itemTokens);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= options.budgetTokens) return { items: [...items] };
  const starts = turnStarts(items);
  const keepFrom = Math.max(0, Math.min(options.keepFrom, items.length));
  const protectedStart = starts.filter((start) => start <= keepFrom).at(-1) ?? 0;

  const kept: ConversationItem[] = items.slice();
  for (let index = 0; index < protectedStart && total > options.budgetTokens; index += 1) {
    const item = items[index] as ConversationItem;
    if (item.type !== "function_call_output" || item.output.length <= MIN_SHORTENED_OUTPUT_CHARS) continue;
    const shortened: ConversationItem = { ...item, output: trimmedMarker(item.output.length) };
    const size = itemTokens(shortened);
    total -= (sizes[index] as number) - size;
    sizes[index] = size;
    kept[index] = shortened;
  }
  let firstKept = 0;
  for (const start of starts) {
    if (total <= options.budgetTokens || start >= protectedStart) break;
    const next = starts.find((candidate) => candidate > start) ?? items.length;
    for (let index = start; index < next; index += 1) total -= sizes[index] as number;
    firstKept = next;
  }
  const result = kept.slice(firstKept);
  if (result.length === items.length && result.every((item, index) => item === items[index])) {
    return { items: result };
  }
  const shortenedOutputs = result.filter((item, index) => item !== items[firstKept + index]).length;
  const chars = textChars(items) - textChars(result);
  return {
    items: result,
    trimmed: { items: firstKept + shortenedOutputs, chars, droppedItems: firstKept, shortenedOutputs },
  };
}

/** Estimated tokens of a text: its UTF-8 bytes over `ESTIMATED_BYTES_PER_TOKEN`. */
function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / ESTIMATED_BYTES_PER_TOKEN);
}

function itemTokens(item: ConversationItem): number {
  if (item.type === "message") return ITEM_OVERHEAD_TOKENS + estimateTokens(item.text);
  if (item.type === "function_call") {
    return ITEM_OVERHEAD_TOKENS + estimateTokens(item.name) + estimateTokens(item.arguments);
  }
  return ITEM_OVERHEAD_TOKENS + estimateTokens(item.output);
}

function itemChars(item: ConversationItem): number {
  if (item.type === "message") return item.text.length;
  if (item.type === "function_call") return item.name.length + item.arguments.length;
  return item.output.length;
}

function textChars(items: readonly ConversationItem[]): number {
  return items.reduce((sum, item) => sum + itemChars(item), 0);
}

/**
 * Indexes where a turn starts: 0, and every user message that no call/output pair spans (a call before it
 * whose output comes at or after it).
 */
function turnStarts(items: readonly ConversationItem[]): number[] {
  const callIndex = new Map<string, number>();
  const spanDelta = new Array<number>(items.length + 1).fill(0);
  items.forEach((item, index) => {
    if (item.type === "function_call") callIndex.set(item.callId, index);
    if (item.type !== "function_call_output") return;
    const call = callIndex.get(item.callId);
    if (call === undefined) return;
    spanDelta[call + 1] = (spanDelta[call + 1] as number) + 1;
    spanDelta[index + 1] = (spanDelta[index + 1] as number) - 1;
  });
  const starts = [0];
  let open = 0;
  items.forEach((item, index) => {
    open += spanDelta[index] as number;
    if (index > 0 && open === 0 && item.type === "message" && item.role === "user") starts.push(index);
  });
  return starts;
}

function trimmedMarker(length: number): string {
  return `[earlier tool output trimmed to fit the model's context window: it was ${length} characters]`;
}

/** One log line's worth of what `fitHistory` removed. */
export function describeHistoryTrim(trim: HistoryTrim, budgetTokens: number): string {
  return (
    `history trimmed to fit the model's context window (about ${budgetTokens} tokens for the conversation): ` +
    `${trim.droppedItems} items of the oldest turns dropped, ${trim.shortenedOutputs} old tool outputs shortened, ` +
    `${trim.chars} characters left out`
  );
}
