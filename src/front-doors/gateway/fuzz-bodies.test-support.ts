/**
 * Seeded, deterministic request bodies for the gateway fuzz test: valid Responses, Chat Completions and
 * Anthropic Messages requests, mutated at random places (wrong types, huge strings, deep nesting, odd unicode, numbers as
 * strings, nulls, arrays for objects and the reverse, dropped and unknown keys), plus broken JSON text.
 */

/** One generated body: which route it goes to, its text, and what was done to it (for failure messages). */
export type FuzzBody = {
  path: "/v1/responses" | "/v1/chat/completions" | "/v1/messages";
  text: string;
  mutations: string[];
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same bodies on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PARAMETERS: Json = {
  type: "object",
  properties: { city: { type: "string", description: "City name." }, days: { type: "integer" } },
  required: ["city"],
};

const RESPONSES_BASES: Json[] = [
  { model: "toolsift", input: "What is the weather in Paris?" },
  { input: [{ role: "user", content: "hello" }], instructions: "Answer briefly." },
  {
    input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "look it up" }] }],
    tools: [{ type: "function", name: "lookup", description: "Look a thing up.", parameters: PARAMETERS }],
    max_output_tokens: 200,
    store: false,
    metadata: { user: "u1" },
  },
  {
    input: [
      { role: "user", content: "weather?" },
      { type: "function_call", call_id: "call_1", name: "lookup", arguments: '{"city":"Paris"}' },
      { type: "function_call_output", call_id: "call_1", output: "sunny" },
      { role: "developer", content: "be nice" },
      { role: "user", content: [{ type: "input_text", text: "thanks" }] },
    ],
    tools: [{ type: "function", function: { name: "lookup", parameters: PARAMETERS } }],
    tool_choice: "auto",
    stream: false,
  },
];

const CHAT_BASES: Json[] = [
  { model: "toolsift", messages: [{ role: "user", content: "hi" }] },
  {
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "hello" }] },
    ],
    max_tokens: 64,
    n: 1,
  },
  {
    messages: [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
      { role: "user", content: "and tomorrow?" },
    ],
    tools: [
      { type: "function", function: { name: "lookup", description: "Look up.", parameters: PARAMETERS } },
    ],
    max_completion_tokens: 100,
    temperature: 0.2,
  },
];

const MESSAGES_BASES: Json[] = [
  { model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "hi" }] },
  {
    model: "claude-sonnet-4-5",
    max_tokens: 256,
    system: [{ type: "text", text: "Be terse.", cache_control: { type: "ephemeral" } }],
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    metadata: { user_id: "u1" },
    stop_sequences: [],
  },
  {
    model: "toolsift/main",
    max_tokens: 128,
    messages: [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "toolu_1", name: "lookup", input: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "sunny" }] },
          { type: "text", text: "and tomorrow?" },
        ],
      },
    ],
    tools: [{ name: "lookup", description: "Look up.", input_schema: PARAMETERS }],
    tool_choice: { type: "auto" },
    stream: false,
  },
];

/** Strings that exercise unicode edges: lone surrogates, NUL, bidi overrides, zero-width, emoji, CJK. */
const ODD_STRINGS = [
  "\ud800",
  "a\udc00b",
  "\u0000",
  "\u202eevil\u202c",
  "\u200b\u200d\ufeff",
  "🧪🙂👩‍👩‍👧",
  "天気は？",
  "\\u0000",
  "",
  " ",
  "function",
  "message",
  "user",
  "__proto__",
  "constructor",
];

/** Bodies past this many characters get no further mutations (the gateway's cap is 1 MiB). */
const MAX_MUTATED_CHARS = 1_000_000;

/** Placeholders replaced by nesting text after `JSON.stringify` (which cannot write hostile depths itself). */
const DEEP_MARKER = "\u0001DEEP";

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** Every [parent, key] slot in a JSON value, the root's own slot first. */
function slots(root: {
  value: Json;
}): Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> {
  const found: Array<{ parent: Json[] | { [key: string]: Json }; key: string | number }> = [
    { parent: root as unknown as { [key: string]: Json }, key: "value" },
  ];
  const pending: Json[] = [root.value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Array.isArray(next)) {
      next.forEach((child, index) => {
        found.push({ parent: next as Json[], key: index });
        pending.push(child);
      });
    } else if (next !== null && typeof next === "object") {
      for (const [key, child] of Object.entries(next)) {
        found.push({ parent: next, key });
        pending.push(child);
      }
    }
  }
  return found;
}

/** A replacement value and its name, for one mutation. */
function mutant(random: () => number, current: Json): [Json, string] {
  const choice = Math.floor(random() * 16);
  switch (choice) {
    case 0:
      return [null, "null"];
    case 1:
      return [pick(random, [0, -1, 1.5, 1e308, -0, 2 ** 53 + 1]), "number"];
    case 2:
      return [random() < 0.5, "boolean"];
    case 3:
      return [pick(random, ODD_STRINGS), "odd string"];
    case 4: {
      const length = pick(random, [1_000, 1_000, 100_000, 100_000, 900_000]);
      return ["x".repeat(length), `huge string ${length}`];
    }
    case 5: {
      const depth = pick(random, [63, 64, 65, 200, 10_000]);
      return [`${DEEP_MARKER}:a:${depth}`, `deep arrays ${depth}`];
    }
    case 6: {
      const depth = pick(random, [63, 64, 65, 200, 10_000]);
      return [`${DEEP_MARKER}:o:${depth}`, `deep objects ${depth}`];
    }
    case 7:
      return [typeof current === "number" ? String(current) : "12", "number as string"];
    case 8:
      return [
        Array.isArray(current) ? { 0: current[0] ?? null } : [current],
        "array for object (or reverse)",
      ];
    case 9:
      return [{}, "empty object"];
    case 10:
      return [[], "empty array"];
    case 11: {
      // Many copies of a small value (a few of a big one, so the body stays near the size cap).
      const text = JSON.stringify(current);
      const size = text.includes(DEEP_MARKER.slice(1)) ? Number.POSITIVE_INFINITY : text.length;
      const length = size > 1_000 ? 3 : size > 20 ? 20 : pick(random, [5, 600, 5_000]);
      return [Array.from({ length }, () => current), `repeated ${length}`];
    }
    case 12:
      return [{ type: pick(random, ODD_STRINGS), text: current }, "odd part"];
    case 13:
      return [`${typeof current === "string" ? current : "s"}${pick(random, ODD_STRINGS)}`, "odd suffix"];
    case 14:
      return [
        pick(random, ["function_call", "function_call_output", "message", "input_image", "tool"]),
        "type word",
      ];
    default:
      return [{ unexpected: current, "": null }, "wrapped"];
  }
}

function nest(kind: string, depth: number): string {
  return kind === "a"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** One mutated body from a valid one: 1 to 3 mutations at random slots, or text-level damage. */
function mutateBody(random: () => number, base: Json): { text: string; mutations: string[] } {
  const root = { value: structuredClone(base) };
  const mutations: string[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let index = 0; index < count; index += 1) {
    // A body already past the size cap is refused whole: mutating it further would only slow the test.
    if (index > 0 && JSON.stringify(root.value).length > MAX_MUTATED_CHARS) break;
    const slot = pick(random, slots(root));
    const parent = slot.parent as Record<string | number, Json>;
    const current = parent[slot.key] ?? null;
    const where = String(slot.key);
    if (random() < 0.12 && slot.parent !== (root as unknown)) {
      if (Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
      else delete parent[slot.key];
      mutations.push(`drop ${where}`);
      continue;
    }
    if (random() < 0.08 && !Array.isArray(current) && current !== null && typeof current === "object") {
      const [value, name] = mutant(random, null);
      current[pick(random, ["type", "role", "content", "name", "parameters", "zzz"])] = value;
      mutations.push(`add key (${name}) under ${where}`);
      continue;
    }
    const [value, name] = mutant(random, current);
    parent[slot.key] = value;
    mutations.push(`${name} at ${where}`);
  }
  let text = JSON.stringify(root.value);
  text = text.replace(/"\\u0001DEEP:([ao]):(\d+)"/gu, (_, kind: string, depth: string) =>
    nest(kind, Number(depth)),
  );
  const damage = random();
  if (damage < 0.04) {
    text = text.slice(0, Math.floor(random() * text.length));
    mutations.push("truncated text");
  } else if (damage < 0.06) {
    text = `${text}${pick(random, ["}", ",", "garbage", "\u0000", "]"])}`;
    mutations.push("trailing garbage");
  }
  return { text, mutations };
}

/** Mixed into the seed of the Messages bodies' random stream. */
const MESSAGES_SEED_MASK = 0x6d_65_73_73;

/** `count` bodies per route, the same for the same seed. */
export function fuzzBodies(seed: number, count: number): FuzzBody[] {
  const random = seededRandom(seed);
  const bodies: FuzzBody[] = [];
  for (let index = 0; index < count; index += 1) {
    const responses = mutateBody(random, pick(random, RESPONSES_BASES));
    bodies.push({ path: "/v1/responses", ...responses });
    const chat = mutateBody(random, pick(random, CHAT_BASES));
    bodies.push({ path: "/v1/chat/completions", ...chat });
  }
  // A stream of its own, so adding this route left the other routes' bodies for a seed as they were.
  const messagesRandom = seededRandom(seed ^ MESSAGES_SEED_MASK);
  for (let index = 0; index < count; index += 1) {
    const messages = mutateBody(messagesRandom, pick(messagesRandom, MESSAGES_BASES));
    bodies.push({ path: "/v1/messages", ...messages });
  }
  return bodies;
}

/** The valid bodies the mutations start from, for a sanity check that they pass untouched. */
export function validBodies(): FuzzBody[] {
  return [
    ...RESPONSES_BASES.map((base) => ({
      path: "/v1/responses" as const,
      text: JSON.stringify(base),
      mutations: [],
    })),
    ...CHAT_BASES.map((base) => ({
      path: "/v1/chat/completions" as const,
      text: JSON.stringify(base),
      mutations: [],
    })),
    ...MESSAGES_BASES.map((base) => ({
      path: "/v1/messages" as const,
      text: JSON.stringify(base),
      mutations: [],
    })),
  ];
}
