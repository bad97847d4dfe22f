import { safeRead } from "../../shared/schema/index.js";
import {
  MAX_JSON_REDACTION_CHARS,
  MAX_KNOWN_SECRET_ESCAPES,
  MAX_REDACTION_DEPTH,
  MAX_REDACTION_NODES,
  MIN_KNOWN_SECRET_CHARS,
} from "./limits.js";
import { parseJsonText } from "./parse-json-text.js";
import { REDACTED, TRUNCATED } from "./redact-secrets.js";
import { isSecretKeyName } from "./secret-key-name.js";

/**
 * The string values of secret-like keys anywhere in `value` (see isSecretKeyName; a string holding JSON,
 * like function-call arguments or a tool's output, is parsed and searched too), at least
 * MIN_KNOWN_SECRET_CHARS long. A run learns these from its calls, so the same values are redacted wherever
 * they show up later: in a tool's free-text echo, or in the model's own words.
 */
export function collectSecretValues(value: unknown): string[] {
  const found = new Set<string>();
  const walk = { nodes: 0 };
  collect(value, false, 0, walk, found);
  return [...found];
}

/**
 * A copy of `value` in which every string has each `known` secret (as it is, and JSON-escaped as it appears
 * inside JSON text, nested up to MAX_KNOWN_SECRET_ESCAPES times) replaced by `[REDACTED]`. Values shorter
 * than MIN_KNOWN_SECRET_CHARS are ignored. Never mutates its input; depth and size are bounded like
 * redactSecrets (the excess becomes `[Truncated]`).
 */
export function redactKnownValues<T>(value: T, known: Iterable<string>): T {
  const forms = knownSecretForms(known);
  if (forms.length === 0) return value;
  // Most events hold no known secret: they are passed on as they are rather than copied.
  if (untouched(value, forms, 0, { nodes: 0 })) return value;
  return replaceIn(value, forms, 0, { nodes: 0 }) as T;
}

/**
 * True when replaceIn would give a copy equal to `value` in every way JSON and the redaction after it can
 * see: it walks as replaceIn does (same node count and depth bounds) and answers false where replaceIn
 * would replace or truncate, and where its plain copy would differ (an object that is neither an array
 * nor a plain object, a `toJSON` only a copy would lose, a read that throws).
 */
function untouched(
  value: unknown,
  forms: readonly string[],
  depth: number,
  walk: { nodes: number },
): boolean {
  walk.nodes += 1;
  if (walk.nodes > MAX_REDACTION_NODES || depth > MAX_REDACTION_DEPTH) return false;
  if (typeof value === "string") {
    for (const form of forms) if (value.includes(form)) return false;
    return !jsonHoldsKnownSecret(value, forms);
  }
  if (typeof value !== "object" || value === null) return true;
  try {
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) return false;
      // A copy keeps the indices only: an own property beside them (a `toJSON`) would be lost.
      if (Object.keys(value).length !== value.length) return false;
      for (let index = 0; index < value.length; index += 1)
        if (!untouched(value[index], forms, depth + 1, walk)) return false;
      return true;
    }
    // A null-prototype object is left to the copy too: its copy would inherit from Object.prototype.
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!untouched(record[key], forms, depth + 1, walk)) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * The value parsed from `text` when it is JSON (as parsedJson reads it) and one of its strings holds one of
 * `forms`; undefined otherwise. Its own bounded walk: a value too large to search is taken as holding none.
 */
function jsonHolding(text: string, forms: readonly string[]): unknown {
  if (forms.length === 0) return undefined;
  const parsed = parsedJson(text);
  if (parsed === undefined) return undefined;
  return holdsForm(parsed, forms, 0, { nodes: 0 }) ? parsed : undefined;
}

/** True when `text` is JSON one of whose strings holds one of `forms` (see jsonHolding). */
export function jsonHoldsKnownSecret(text: string, forms: readonly string[]): boolean {
  return jsonHolding(text, forms) !== undefined;
}

function holdsForm(
  value: unknown,
  forms: readonly string[],
  depth: number,
  walk: { nodes: number },
): boolean {
  walk.nodes += 1;
  if (walk.nodes > MAX_REDACTION_NODES || depth > MAX_REDACTION_DEPTH) return false;
  if (typeof value === "string") return forms.some((form) => value.includes(form));
  if (typeof value !== "object" || value === null) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  for (const item of items) if (holdsForm(item, forms, depth + 1, walk)) return true;
  return false;
}

function collect(
  value: unknown,
  secretKey: boolean,
  depth: number,
  walk: { nodes: number },
  found: Set<string>,
) {
  walk.nodes += 1;
  if (walk.nodes > MAX_REDACTION_NODES || depth > MAX_REDACTION_DEPTH) return;
  if (typeof value === "string") {
    if (secretKey && value.length >= MIN_KNOWN_SECRET_CHARS && value !== REDACTED) found.add(value);
    const parsed = parsedJson(value);
    if (parsed !== undefined) collect(parsed, false, depth + 1, walk, found);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1)
      collect(safeRead(value, String(index)), secretKey, depth + 1, walk, found);
    return;
  }
  for (const key of Object.keys(value)) {
    collect(safeRead(value, key), secretKey || isSecretKeyName(key), depth + 1, walk, found);
  }
}

function parsedJson(text: string): unknown {
  if (text.length > MAX_JSON_REDACTION_CHARS) return undefined;
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== "{" && first !== "[") return undefined;
  return parseJsonText(trimmed)?.parsed;
}

/**
 * Each known secret (MIN_KNOWN_SECRET_CHARS or longer) and its JSON-escaped forms, up to
 * MAX_KNOWN_SECRET_ESCAPES levels, longest first, so a longer secret is replaced before a part of it: what
 * redactKnownValues looks for in every string.
 */
export function knownSecretForms(known: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of known) {
    if (typeof secret !== "string" || secret.length < MIN_KNOWN_SECRET_CHARS || secret === REDACTED) continue;
    let form = secret;
    for (let level = 0; level <= MAX_KNOWN_SECRET_ESCAPES; level += 1) {
      forms.add(form);
      form = JSON.stringify(form).slice(1, -1);
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function replaceIn(
  value: unknown,
  forms: readonly string[],
  depth: number,
  walk: { nodes: number },
): unknown {
  walk.nodes += 1;
  if (walk.nodes > MAX_REDACTION_NODES || depth > MAX_REDACTION_DEPTH) return TRUNCATED;
  if (typeof value === "string") {
    let text = value;
    for (const form of forms) if (text.includes(form)) text = text.split(form).join(REDACTED);
    // JSON text may spell a secret with escapes (`\u0050` for `P`) that only parsing reveals, and a later
    // re-serialisation would write out plainly: such text is parsed, redacted and serialised again.
    const parsed = jsonHolding(text, forms);
    if (parsed !== undefined) text = JSON.stringify(replaceIn(parsed, forms, 0, { nodes: 0 }));
    return text;
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let index = 0; index < value.length; index += 1)
      out.push(replaceIn(safeRead(value, String(index)), forms, depth + 1, walk));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: replaceIn(safeRead(value, key), forms, depth + 1, walk),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
