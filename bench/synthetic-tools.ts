import type { ToolDefinition, ToolResult } from "../src/core/catalog/index.js";

const VERBS = [
  "get",
  "list",
  "create",
  "update",
  "delete",
  "search",
  "send",
  "calculate",
  "analyze",
  "schedule",
];
const NOUNS = [
  "weather",
  "invoice",
  "customer",
  "order",
  "ticket",
  "calendar",
  "event",
  "file",
  "folder",
  "message",
  "email",
  "report",
  "metric",
  "sensor",
  "device",
  "project",
  "task",
  "user",
  "account",
  "payment",
  "shipment",
  "product",
  "review",
  "policy",
  "document",
  "image",
  "video",
  "playlist",
  "flight",
  "hotel",
];
const QUALIFIERS = ["daily", "regional", "archived", "pending", "shared", "public", "internal", "recent"];
const FIELDS = ["id", "name", "date", "limit", "region", "status", "owner", "query", "format", "language"];

/** A deterministic pseudo-random sequence, so every run benchmarks the same catalog. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `count` realistic-looking plugin tools (camelCase names, one-sentence descriptions, 2-5 described parameters). */
export function syntheticTools(count: number, seed = 1): ToolDefinition[] {
  const next = sequence(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const result: ToolResult = { content: [{ type: "text", text: "ok" }] };
  return Array.from({ length: count }, (_, index) => {
    const verb = pick(VERBS);
    const noun = pick(NOUNS);
    const other = pick(NOUNS);
    const qualifier = pick(QUALIFIERS);
    const properties: Record<string, { type: string; description: string }> = {};
    const fieldCount = 2 + Math.floor(next() * 4);
    for (let field = 0; field < fieldCount; field += 1) {
      const name = `${pick(FIELDS)}${field}`;
      properties[name] = { type: "string", description: `The ${qualifier} ${other} ${name} to use` };
    }
    return {
      name: `${verb}${capitalise(qualifier)}${capitalise(noun)}${capitalise(other)}${index}`,
      description: `${capitalise(verb)} the ${qualifier} ${noun} records linked to a ${other}, with paging.`,
      parameters: { type: "object", properties, required: Object.keys(properties).slice(0, 1) },
      origin: { kind: "plugin", owner: `plugin${index % 50}` },
      execute: async () => result,
    };
  });
}

/** Short keyword queries over the synthetic vocabulary. */
export function syntheticQueries(count: number, seed = 2): string[] {
  const next = sequence(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return Array.from(
    { length: count },
    () => `${pick(VERBS)} ${pick(QUALIFIERS)} ${pick(NOUNS)} for a ${pick(NOUNS)}`,
  );
}
