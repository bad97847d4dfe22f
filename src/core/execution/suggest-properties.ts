import type { ErrorObject } from "ajv";
import { pointerSegments, renderPath } from "./format-validation-errors.js";
import { MAX_EXAMINED_VALIDATION_ERRORS, MAX_SUGGESTION_KEYS } from "./limits.js";

/** Most property suggestions in one ` Did you mean: ...?` suffix. */
const MAX_PROPERTY_SUGGESTIONS = 3;

/** Largest edit distance ever accepted for a suggestion (the per-name bound is `min(3, max(1, ceil(len/3)))`). */
const MAX_SUGGESTION_DISTANCE = 3;

/**
 * The largest edit distance at which two names count as a misspelling of each other:
 * `min(3, max(1, ceil(len/3)))`, where `len` is the length of the longer of the two (pass that one).
 */
export function suggestionThreshold(name: string): number {
  return Math.min(MAX_SUGGESTION_DISTANCE, Math.max(1, Math.ceil(name.length / 3)));
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent transpositions)
 * between `a` and `b`, in UTF-16 code units; any distance above `limit` is reported as `limit + 1`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, previous2[j - 2]! + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

function declaredNames(parentSchema: unknown): string[] {
  if (typeof parentSchema !== "object" || parentSchema === null) return [];
  const properties = (parentSchema as Record<string, unknown>).properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.keys(properties);
}

function dataKeys(data: unknown): string[] {
  if (typeof data !== "object" || data === null) return [];
  try {
    const keys: string[] = [];
    for (const key of Object.keys(data)) {
      keys.push(key);
      if (keys.length >= MAX_SUGGESTION_KEYS) break;
    }
    return keys;
  } catch {
    return [];
  }
}

interface Candidate {
  readonly suggestion: string;
  readonly distance: number;
  readonly order: number;
}

/** The closest declared name for one unexpected key, if any is within the key's threshold. */
function closest(unexpected: string, declared: readonly string[], present: readonly string[]) {
  let best: { name: string; distance: number } | undefined;
  for (const name of declared) {
    if (name === unexpected || present.includes(name)) continue;
    const limit = suggestionThreshold(unexpected.length >= name.length ? unexpected : name);
    const distance = editDistance(unexpected, name, limit);
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best;
}

/**
 * Declared property names the caller probably meant, from ajv errors made with `verbose: true`: an
 * unexpected property (forbidden by `additionalProperties`/`unevaluatedProperties`), or an undeclared key
 * beside a missing required property, within `suggestionThreshold` (of the longer name) of a declared name. Closest first,
 * then in error order; at most MAX_PROPERTY_SUGGESTIONS, rendered as paths (`instruction`, `opts.mode`).
 */
export function suggestProperties(errors: readonly ErrorObject[]): string[] {
  const candidates: Candidate[] = [];
  const consider = (segments: string[], unexpected: string, declared: string[], present: string[]) => {
    const best = closest(unexpected, declared, present);
    if (!best) return;
    const suggestion = renderPath([...segments, best.name]);
    candidates.push({ suggestion, distance: best.distance, order: candidates.length });
  };
  for (const error of errors.slice(0, MAX_EXAMINED_VALIDATION_ERRORS)) {
    const segments = pointerSegments(error.instancePath);
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
      const unexpected = params.additionalProperty ?? params.unevaluatedProperty;
      if (typeof unexpected !== "string") continue;
      consider(segments, unexpected, declaredNames(error.parentSchema), dataKeys(error.data));
    } else if (error.keyword === "required" && typeof params.missingProperty === "string") {
      const declared = declaredNames(error.parentSchema);
      const present = dataKeys(error.data);
      for (const key of present) {
        if (!declared.includes(key)) consider(segments, key, [params.missingProperty], present);
      }
    }
  }
  candidates.sort((left, right) => left.distance - right.distance || left.order - right.order);
  const unique = [...new Set(candidates.map((candidate) => candidate.suggestion))];
  return unique.slice(0, MAX_PROPERTY_SUGGESTIONS);
}
