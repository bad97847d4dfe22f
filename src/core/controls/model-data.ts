import { MAX_MODEL_JSON_NODES } from "./limits.js";

/** A plain-data copy of an untrusted value, or why it could not be made. */
export type ModelData = { ok: true; data: unknown } | { ok: false; reason: string };

class SerialisationBudgetExceeded extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Copies an untrusted value (a schema, a tool's details) into plain JSON data the model text can hold.
 * Reads the value only through `JSON.stringify` (the reads serialising needs), inside `try`: cycles,
 * throwing getters, BigInts, revoked Proxies and stack overflows give `{ ok: false }`, never an exception.
 * The copy is bounded: more than `maxChars` characters or `MAX_MODEL_JSON_NODES` values gives `{ ok: false }`.
 */
export function toModelData(value: unknown, maxChars: number): ModelData {
  let nodes = 0;
  let chars = 0;
  const replacer = (key: string, inner: unknown): unknown => {
    nodes += 1;
    chars += key.length + 4 + (typeof inner === "string" ? inner.length : 0);
    if (nodes > MAX_MODEL_JSON_NODES)
      throw new SerialisationBudgetExceeded(`more than ${MAX_MODEL_JSON_NODES} values`);
    if (chars > maxChars) throw new SerialisationBudgetExceeded(`larger than ${maxChars} characters`);
    return inner;
  };
  let text: string | undefined;
  try {
    text = JSON.stringify(value, replacer);
  } catch (error) {
    if (error instanceof SerialisationBudgetExceeded) return { ok: false, reason: error.reason };
    return { ok: false, reason: "not serialisable as JSON (cyclic, unreadable or holding non-JSON values)" };
  }
  if (text === undefined) return { ok: false, reason: "not a JSON value" };
  if (text.length > maxChars) return { ok: false, reason: `larger than ${maxChars} characters` };
  return { ok: true, data: JSON.parse(text) as unknown };
}

/** The model-facing text of plain data the controls built themselves: compact JSON (no indentation). */
export function modelText(data: unknown): string {
  return JSON.stringify(data) ?? "null";
}
