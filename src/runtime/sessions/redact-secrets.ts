import { safeRead } from "../../shared/schema/index.js";
import { MAX_JSON_REDACTION_CHARS, MAX_REDACTION_DEPTH, MAX_REDACTION_NODES } from "./limits.js";
import { parseJsonText } from "./parse-json-text.js";
import { jsonHoldsKnownSecret } from "./redact-known-values.js";
import { redactText } from "./redact-text.js";
import { isSecretKeyName } from "./secret-key-name.js";

/** What a value past the depth or node bound (or one that cannot be read) is replaced with. */
export const TRUNCATED = "[Truncated]";

/** What a reference back to an object being copied (a cycle) is replaced with. */
export const CIRCULAR = "[Circular]";

/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

interface Walk {
  nodes: number;
  /** How many values were replaced so far (tells a JSON string whether it must be re-serialised). */
  changes: number;
  /** Objects being copied on the current path (cycle detection). */
  readonly ancestors: Set<object>;
}

/**
 * JSON Schema keywords that describe a value without holding it: an object under a secret-named key with
 * only these keys, each a string, number or boolean, is the schema of a secret (a tool's `password`
 * parameter), not the secret. `default`, `examples`, `enum` and `const` can hold a value: not listed.
 */
const SCHEMA_DESCRIPTION_KEYS: ReadonlySet<string> = new Set([
  "type",
  "description",
  "title",
  "format",
  "minLength",
  "maxLength",
  "pattern",
  "required",
  "nullable",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** True for a plain object that only describes a value (SCHEMA_DESCRIPTION_KEYS with primitive values). */
function isValueDescription(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return false;
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  for (const key of keys) {
    if (!SCHEMA_DESCRIPTION_KEYS.has(key)) return false;
    const item = safeRead(value, key);
    if (typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean") return false;
  }
  return true;
}

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  return (first === "{" && last === "}") || (first === "[" && last === "]");
}

/** The value a string holds when it is JSON worth redacting structurally (bounded size), else undefined. */
function embeddedJson(text: string): { parsed: unknown } | undefined {
  if (text.length > MAX_JSON_REDACTION_CHARS || !looksLikeJson(text)) return undefined;
  return parseJsonText(text);
}

function redactString(text: string, depth: number, walk: Walk): string {
  const json = embeddedJson(text);
  if (json !== undefined) {
    const before = walk.changes;
    const copied = copy(json.parsed, depth + 1, walk);
    return walk.changes === before ? text : JSON.stringify(copied);
  }
  const redacted = redactText(text);
  if (redacted !== text) walk.changes += 1;
  return redacted;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

function copyObject(value: object, depth: number, walk: Walk): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    const length = value.length;
    for (let index = 0; index < length; index += 1) {
      if (walk.nodes >= MAX_REDACTION_NODES) {
        out.push(TRUNCATED);
        walk.changes += 1;
        break;
      }
      out.push(copy(safeRead(value, String(index)), depth + 1, walk));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (walk.nodes >= MAX_REDACTION_NODES) {
      setOwn(out, key, TRUNCATED);
      walk.changes += 1;
      break;
    }
    const item = safeRead(value, key);
    if (item !== undefined && item !== null && isSecretKeyName(key) && !isValueDescription(item)) {
      walk.nodes += 1;
      walk.changes += 1;
      setOwn(out, key, REDACTED);
    } else {
      setOwn(out, key, copy(item, depth + 1, walk));
    }
  }
  return out;
}

function copy(value: unknown, depth: number, walk: Walk): unknown {
  walk.nodes += 1;
  if (walk.nodes > MAX_REDACTION_NODES) {
    walk.changes += 1;
    return TRUNCATED;
  }
  if (typeof value === "string") return redactString(value, depth, walk);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_REDACTION_DEPTH) {
    walk.changes += 1;
    return TRUNCATED;
  }
  if (walk.ancestors.has(value)) {
    walk.changes += 1;
    return CIRCULAR;
  }
  walk.ancestors.add(value);
  try {
    const toJSON = safeRead(value, "toJSON");
    if (typeof toJSON === "function") return copy(Reflect.apply(toJSON, value, [""]), depth + 1, walk);
    return copyObject(value, depth, walk);
  } catch {
    walk.changes += 1;
    return TRUNCATED;
  } finally {
    walk.ancestors.delete(value);
  }
}

/**
 * A redacted copy of `value`, safe to persist: values of secret-like keys (password, token, secret,
 * apiKey, authorization, access_token, client_secret, private_key, … at any depth; see isSecretKeyName)
 * become `[REDACTED]`, unless the value only describes one (`{ "type": "string", "description": … }`, a
 * tool's schema: isValueDescription), which is copied like any other value; strings go through redactText, and a string holding JSON (function-call
 * arguments, tool outputs) is parsed, redacted structurally and re-serialised when something changed.
 * Never mutates its input; cycles become `[Circular]`; depth and size are bounded (MAX_REDACTION_DEPTH,
 * MAX_REDACTION_NODES: the excess becomes `[Truncated]`); `toJSON` is honoured as JSON.stringify would.
 */
export function redactSecrets(value: unknown): unknown {
  return copy(value, 0, { nodes: 0, changes: 0, ancestors: new Set() });
}

/** No known secrets to look for. */
const NO_FORMS: readonly string[] = [];

/**
 * True when redactSecrets(value) would change nothing, so JSON.stringify(value) is the JSON of its redacted
 * copy: it walks exactly as copy does (same node count, depth and JSON-in-string rules) and answers false
 * wherever copy would replace a value, and wherever the copy could serialise differently from the value
 * (a `toJSON` to honour, an object that is neither an array nor a plain object, a read that throws).
 * With known secret `forms` (knownSecretForms), it also answers false wherever redactKnownValues would not
 * pass `value` on as it is: a string holding a form, an object whose prototype is not Object.prototype, an
 * array with holes or properties beside its indices. Forms are looked for in the value's own strings only,
 * not in the JSON parsed out of them: redactKnownValues replaces them in those strings, as text.
 */
function unchanged(value: unknown, depth: number, walk: Walk, forms: readonly string[]): boolean {
  walk.nodes += 1;
  if (walk.nodes > MAX_REDACTION_NODES) return false;
  if (typeof value === "string") {
    for (const form of forms) if (value.includes(form)) return false;
    if (forms.length > 0 && jsonHoldsKnownSecret(value, forms)) return false;
    return stringUnchanged(value, depth, walk);
  }
  if (typeof value !== "object" || value === null) return true;
  if (depth >= MAX_REDACTION_DEPTH || walk.ancestors.has(value)) return false;
  walk.ancestors.add(value);
  try {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) return false;
      const length = value.length;
      if (forms.length > 0 && Object.keys(value).length !== length) return false;
      for (let index = 0; index < length; index += 1) {
        if (walk.nodes >= MAX_REDACTION_NODES) return false;
        if (!unchanged(value[index], depth + 1, walk, forms)) return false;
      }
      return true;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && (prototype !== null || forms.length > 0)) return false;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (walk.nodes >= MAX_REDACTION_NODES) return false;
      const item = record[key];
      if (item !== undefined && item !== null && isSecretKeyName(key) && !isValueDescription(item))
        return false;
      if (!unchanged(item, depth + 1, walk, forms)) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    walk.ancestors.delete(value);
  }
}

function stringUnchanged(text: string, depth: number, walk: Walk): boolean {
  const json = embeddedJson(text);
  // copy keeps a JSON string whose redacted copy changed nothing: the same walk decides.
  if (json !== undefined) return unchanged(json.parsed, depth + 1, walk, NO_FORMS);
  return redactText(text) === text;
}

/**
 * True when nothing in `value` needs redacting: redactKnownValues(value, secrets) would pass it on as it is
 * (`forms` = knownSecretForms(secrets)), redactSecrets would change nothing, and JSON.stringify(value) is
 * the JSON of the redacted copy. One walk for both redactions.
 */
export function needsNoRedaction(value: unknown, forms: readonly string[]): boolean {
  return unchanged(value, 0, { nodes: 0, changes: 0, ancestors: new Set() }, forms);
}

/**
 * The JSON text of redactSecrets(value), as JSON.stringify(redactSecrets(value)) gives it; a value in which
 * nothing needs redacting is serialised as it is, without a copy. Throws what JSON.stringify throws.
 */
export function redactedJson(value: unknown): string | undefined {
  if (needsNoRedaction(value, NO_FORMS)) return JSON.stringify(value);
  return JSON.stringify(redactSecrets(value));
}
