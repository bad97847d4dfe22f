import { type ConfigPathSegment, formatConfigPath, isPlainRecord } from "../../runtime/config/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { describeValue } from "../../shared/text/index.js";
import type { ConfigEdit } from "./edit-config-text.js";

/**
 * The parsed config after one edit, as a fresh copy (the input is not changed). A set creates missing objects
 * on the way (`[0]` or the next free index of an existing array appends); an unset removes the key, or the
 * array element (later ones move up). Throws INVALID_REQUEST, naming the path, for an edit that cannot apply:
 * `No value at <path>.` for an unset of nothing, or a step through a value that is not an object or array.
 */
export function applyConfigEdit(raw: unknown, edit: ConfigEdit): Record<string, unknown> {
  if (!isPlainRecord(raw)) {
    throw new ToolsiftError("INVALID_REQUEST", "The top level of the config file must be an object { … }.");
  }
  const root = structuredClone(raw);
  const { path } = edit;
  let current: unknown = root;
  for (const [step, segment] of path.entries()) {
    const here = path.slice(0, step);
    const isLast = step === path.length - 1;
    if (edit.op === "unset" && !fitsStep(current, segment)) throw noValue(path);
    const container = asContainer(current, here, segment);
    const exists = Array.isArray(container)
      ? (segment as number) < container.length
      : Object.hasOwn(container, segment);

    if (edit.op === "unset") {
      if (!exists) throw noValue(path);
      if (!isLast) {
        current = (container as Record<string | number, unknown>)[segment];
        continue;
      }
      if (Array.isArray(container)) container.splice(segment as number, 1);
      else delete (container as Record<string, unknown>)[segment as string];
      return root;
    }

    if (exists && !isLast) {
      current = (container as Record<string | number, unknown>)[segment];
      continue;
    }
    const value = isLast ? edit.value : create(path.slice(step + 1), edit.value, path);
    if (Array.isArray(container)) {
      const index = segment as number;
      if (index > container.length) throw pastTheEnd(path.slice(0, step), index, container.length);
      container[index] = value;
    } else {
      Object.defineProperty(container, segment, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return root;
  }
  return root;
}

function fitsStep(value: unknown, segment: ConfigPathSegment): boolean {
  return typeof segment === "number" ? Array.isArray(value) : isPlainRecord(value);
}

/** The object or array `segment` steps into; a string key needs an object, an index needs an array. */
function asContainer(
  value: unknown,
  here: readonly ConfigPathSegment[],
  segment: ConfigPathSegment,
): Record<string, unknown> | unknown[] {
  const where = formatConfigPath(here);
  if (Array.isArray(value)) {
    if (typeof segment === "number") return value;
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `${where} is an array; address its elements by index, e.g. ${where}[0].`,
    );
  }
  if (isPlainRecord(value)) {
    if (typeof segment === "string") return value;
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `${where} is an object, not an array; address its keys by name, e.g. ${where}.name.`,
    );
  }
  throw new ToolsiftError(
    "INVALID_REQUEST",
    `${where} is ${describeValue(value)}, not an object or array, so it has no ${formatConfigPath([
      ...here,
      segment,
    ])
      .slice(where.length)
      .replace(/^\./u, "")}; set ${where} itself instead.`,
  );
}

/** The nested value that makes a missing tail of `path` exist; a new array can only start at `[0]`. */
function create(
  rest: readonly ConfigPathSegment[],
  value: unknown,
  path: readonly ConfigPathSegment[],
): unknown {
  return rest.reduceRight<unknown>((inner, segment, index) => {
    if (typeof segment === "string") {
      const object: Record<string, unknown> = {};
      Object.defineProperty(object, segment, {
        value: inner,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return object;
    }
    if (segment !== 0) {
      const at = path.length - rest.length + index;
      throw pastTheEnd(path.slice(0, at), segment, 0);
    }
    return [inner];
  }, value);
}

function noValue(path: readonly ConfigPathSegment[]): ToolsiftError {
  return new ToolsiftError("INVALID_REQUEST", `No value at ${formatConfigPath(path)}.`);
}

function pastTheEnd(array: readonly ConfigPathSegment[], index: number, length: number): ToolsiftError {
  const where = formatConfigPath(array);
  return new ToolsiftError(
    "INVALID_REQUEST",
    `${where}[${index}] is past the end of ${where} (${length} element${length === 1 ? "" : "s"}); use ${where}[${length}] to append.`,
  );
}
