import { safeRead } from "../../shared/schema/index.js";

const SAFE_FORMAT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/u;

/** The type followed by a block comment listing the notes, or the bare type when there is nothing to note. */
export function withNotes(type: string, notes: readonly string[]): string {
  return notes.length === 0 ? type : `${type} /* ${notes.join(", ")} */`;
}

/**
 * Input notes of a number: `integer`, the lower bound (`>= n` or `> n`), the upper bound (`<= n` or `< n`),
 * then `multiple of n`. Both the draft-4 boolean and the numeric `exclusiveMinimum`/`exclusiveMaximum` work;
 * when a schema sets both an inclusive and an exclusive bound, the stricter one is shown.
 */
export function numberNotes(schema: object, integer: boolean): string[] {
  const notes: string[] = integer ? ["integer"] : [];
  const lower = bound(safeRead(schema, "minimum"), safeRead(schema, "exclusiveMinimum"), "lower");
  if (lower) notes.push(lower);
  const upper = bound(safeRead(schema, "maximum"), safeRead(schema, "exclusiveMaximum"), "upper");
  if (upper) notes.push(upper);
  const multipleOf = safeRead(schema, "multipleOf");
  if (finite(multipleOf) && multipleOf > 0 && !(integer && multipleOf === 1)) {
    notes.push(`multiple of ${multipleOf}`);
  }
  return notes;
}

/** Input notes of a string: a plain `format` name, then `minLength`/`maxLength`. Patterns are never shown. */
export function stringNotes(schema: object): string[] {
  const notes: string[] = [];
  const format = safeRead(schema, "format");
  if (typeof format === "string" && SAFE_FORMAT.test(format)) notes.push(`format: ${format}`);
  pushCount(notes, schema, "minLength");
  pushCount(notes, schema, "maxLength");
  return notes;
}

/** Input notes of an array: `minItems`/`maxItems`. */
export function arrayNotes(schema: object): string[] {
  const notes: string[] = [];
  pushCount(notes, schema, "minItems");
  pushCount(notes, schema, "maxItems");
  return notes;
}

function bound(inclusive: unknown, exclusive: unknown, side: "lower" | "upper"): string | undefined {
  const strict = side === "lower" ? ">" : "<";
  if (finite(exclusive)) {
    const inclusiveIsStricter =
      finite(inclusive) && (side === "lower" ? inclusive > exclusive : inclusive < exclusive);
    return inclusiveIsStricter ? `${strict}= ${inclusive}` : `${strict} ${exclusive}`;
  }
  if (!finite(inclusive)) return undefined;
  return exclusive === true ? `${strict} ${inclusive}` : `${strict}= ${inclusive}`;
}

function pushCount(notes: string[], schema: object, keyword: string): void {
  const value = safeRead(schema, keyword);
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) return;
  // A zero lower bound says nothing.
  if (value > 0 || keyword.startsWith("max")) notes.push(`${keyword}: ${value}`);
}

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
