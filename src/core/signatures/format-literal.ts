/**
 * JSON text of a string that is safe to place on one prompt line: JSON.stringify escapes quotes, control
 * characters and lone surrogates; U+2028 and U+2029 are escaped too, since some readers treat them as line
 * breaks.
 */
export function promptSafeJsonString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/gu, "\\u2028")
    .replace(/\u2029/gu, "\\u2029");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/u;

/** An object key as TypeScript writes it: bare when it is an ASCII identifier, JSON-quoted otherwise. */
export function formatKey(key: string): string {
  return IDENTIFIER.test(key) ? key : promptSafeJsonString(key);
}

/**
 * A JSON literal for an `enum`/`const` value: strings, finite numbers, booleans and `null`. Anything else
 * (objects, arrays, non-finite numbers, non-JSON values) has no compact literal form and gives `undefined`.
 */
export function formatLiteral(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "string") return promptSafeJsonString(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return JSON.stringify(value);
  return undefined;
}
