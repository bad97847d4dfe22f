import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { MAX_CACHED_PREFIXES } from "./limits.js";
import { field } from "./planner-input.js";
import { CHARS_PER_TOKEN } from "./usage-figures.js";

/** A Messages request's prompt-cache figures, in the mock's tokens (bytes / `CHARS_PER_TOKEN`, rounded up). */
export type CacheFigures = {
  /** Tokens of the longest breakpoint prefix seen before (`cache_read_input_tokens`). */
  readTokens: number;
  /** Tokens of the last breakpoint's prefix beyond what was read (`cache_creation_input_tokens`). */
  creationTokens: number;
  /** Bytes of the prefix up to and including the last block with `cache_control` (0 without one). */
  prefixBytes: number;
};

/** The mock's memory of prompt-cache prefixes, to report cache reads and writes like Anthropic. */
export type PromptCache = { account(body: unknown): CacheFigures };

/**
 * A prompt cache keyed by prefix hashes. A request's prefixes are cut at each block carrying
 * `cache_control`, in Anthropic's order: `tools`, then the `system` blocks, then each message's content
 * blocks; a prefix is the JSON of every block up to the breakpoint. The longest prefix already known is a
 * cache read; the rest of the last prefix is a cache write; then every prefix of the request is known. At
 * most `MAX_CACHED_PREFIXES` hashes are kept (the least recently seen forgotten). No minimum length and no
 * expiry: the mock's figures show whether the prefix stays byte-identical, not what Anthropic would charge.
 */
export function createPromptCache(): PromptCache {
  const known = new LRUCache<string, true>({ max: MAX_CACHED_PREFIXES });
  return {
    account(body) {
      const prefixes = breakpointPrefixes(body);
      const last = prefixes.at(-1);
      if (last === undefined) return { readTokens: 0, creationTokens: 0, prefixBytes: 0 };
      const hashes = prefixes.map((prefix) => createHash("sha256").update(prefix.text).digest("hex"));
      let readBytes = 0;
      hashes.forEach((hash, index) => {
        if (known.has(hash)) readBytes = prefixes[index]?.bytes ?? 0;
      });
      // Every prefix of the request becomes the most recently seen (`has` leaves the order alone).
      for (const hash of hashes) known.set(hash, true);
      const readTokens = tokens(readBytes);
      return { readTokens, creationTokens: tokens(last.bytes) - readTokens, prefixBytes: last.bytes };
    },
  };
}

/** Bytes of a Messages body's prefix up to its last `cache_control` breakpoint (0 without one). */
export function cachedPrefixBytes(body: unknown): number {
  return breakpointPrefixes(body).at(-1)?.bytes ?? 0;
}

function breakpointPrefixes(body: unknown): Array<{ text: string; bytes: number }> {
  const blocks: unknown[] = [];
  const tools = field(body, "tools");
  if (Array.isArray(tools)) blocks.push(...tools);
  const system = field(body, "system");
  if (Array.isArray(system)) blocks.push(...system);
  else if (typeof system === "string") blocks.push(system);
  const messages = field(body, "messages");
  for (const message of Array.isArray(messages) ? messages : []) {
    const content = field(message, "content");
    if (Array.isArray(content)) blocks.push(...content);
    else blocks.push(content);
  }
  const prefixes: Array<{ text: string; bytes: number }> = [];
  const parts: string[] = [];
  for (const block of blocks) {
    parts.push(JSON.stringify(block) ?? "");
    const control = field(block, "cache_control");
    if (typeof control === "object" && control !== null) {
      const text = parts.join(",");
      prefixes.push({ text, bytes: Buffer.byteLength(text, "utf8") });
    }
  }
  return prefixes;
}

function tokens(bytes: number): number {
  return Math.ceil(bytes / CHARS_PER_TOKEN);
}
