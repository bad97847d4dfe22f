import { LRUCache } from "lru-cache";
import { MAX_REMEMBERED_JSON_TEXTS } from "./limits.js";

type Parsed = { parsed: unknown } | undefined;

/** Stands for "not JSON" in the memo (which cannot hold `undefined`). */
const NOT_JSON = { parsed: undefined } as const;

/**
 * Texts parsed during the current synchronous work (least recently used dropped first). Module-level: it is
 * emptied a microtask after its first use, so nothing in it outlives the synchronous work that filled it.
 */
const remembered = new LRUCache<string, { parsed: unknown }>({ max: MAX_REMEMBERED_JSON_TEXTS });
let forgetting = false;

const forget = () => {
  remembered.clear();
  forgetting = false;
};

/**
 * `{ parsed: JSON.parse(text) }`, or undefined when `text` is not JSON. A text parsed again before the
 * current synchronous work ends (up to MAX_REMEMBERED_JSON_TEXTS of them) is not parsed twice: the runner
 * learns the secrets of call arguments and tool outputs (collectSecretValues) and then logs the event that
 * carries them, one right after the other. Nothing is kept past that (a microtask later all is forgotten),
 * so no text or value outlives its run here. The parsed value is shared: callers only read it.
 */
export function parseJsonText(text: string): Parsed {
  const known = remembered.get(text);
  if (known !== undefined) return known === NOT_JSON ? undefined : known;
  const result = surelyNotJson(text) ? undefined : parse(text);
  remembered.set(text, result ?? NOT_JSON);
  if (!forgetting) {
    forgetting = true;
    queueMicrotask(forget);
  }
  return result;
}

/** What may follow `[` (after whitespace) in JSON: a value's first character, or `]`. */
const ARRAY_FOLLOWER = /^[-"{[\]0-9tfn]$/;

/** The index of the first character at or after `index` that is not JSON whitespace (space, tab, LF, CR). */
function skipJsonWhitespace(text: string, index: number): number {
  let at = index;
  for (; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
  }
  return at;
}

/**
 * True when JSON.parse(text) would surely throw: an object whose first member does not start with a quote
 * (the type signatures tool listings carry, `{ marker: string }`), or an array whose first element cannot
 * start a value. Two characters looked at spare a thrown SyntaxError (about 9 µs each, against 0.4 µs to
 * parse a small valid text). Anything else is left to JSON.parse.
 */
export function surelyNotJson(text: string): boolean {
  const open = skipJsonWhitespace(text, 0);
  const first = text[open];
  if (first !== "{" && first !== "[") return false;
  const next = text[skipJsonWhitespace(text, open + 1)];
  if (next === undefined) return true;
  return first === "{" ? next !== '"' && next !== "}" : !ARRAY_FOLLOWER.test(next);
}

function parse(text: string): Parsed {
  try {
    return { parsed: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
