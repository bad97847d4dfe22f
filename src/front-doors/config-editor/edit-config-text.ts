import type { ConfigPathSegment } from "../../runtime/config/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { formatJson5Key, formatJson5Value } from "./format-json5-value.js";
import {
  isLineTerminator,
  type Json5Container,
  type Json5Entry,
  type Json5Node,
  parseJson5Tree,
} from "./json5-tree.js";

/** One change to a config file: set a value (creating missing parents) or remove one. */
export type ConfigEdit =
  | { op: "set"; path: readonly ConfigPathSegment[]; value: unknown }
  | { op: "unset"; path: readonly ConfigPathSegment[] };

/** How the file is written, so inserted text looks like the rest of it. */
type TextStyle = { newline: string; unit: string; trailingComma: boolean; quoteKeys: boolean };

type Splice = { from: number; to: number; text: string };

/**
 * Applies edits to the text of a JSON5 config file, changing only what they touch: a set replaces the span of
 * the old value, or inserts a new key before its parent's closing bracket with the siblings' indentation; an
 * unset removes the key's line (or its span on a one-line object) with its comma. Comments and formatting
 * elsewhere stay byte for byte. The text must parse as JSON5 with an object at the top, and the edits must be
 * possible (applyConfigEdit checks both on the parsed value first).
 */
export function editConfigText(text: string, edits: readonly ConfigEdit[]): string {
  let current = text;
  for (const edit of edits) {
    if (edit.op === "set") current = setText(current, edit.path, edit.value);
    else {
      // Duplicate keys: JSON5 keeps the last one, so remove them all or an earlier one would come back.
      // (An array index is removed once: the next element moves into its place.)
      for (let found = locate(current, edit.path); found !== undefined; found = locate(current, edit.path)) {
        current = removeEntry(current, found.container, found.index);
        if (found.container.kind === "array") break;
      }
    }
  }
  return current;
}

function rootObject(text: string): Json5Container {
  const root = parseJson5Tree(text);
  if (root.kind !== "object") {
    throw new ToolsiftError("CONFIG_INVALID", "The top level of the config file must be an object { … }.");
  }
  return root;
}

function findEntry(container: Json5Container, segment: ConfigPathSegment): number {
  if (container.kind === "array") return typeof segment === "number" ? segment : -1;
  return container.entries.findLastIndex((entry) => entry.key === segment);
}

/** The entry at `path` and its container, or undefined when some step is missing. */
function locate(
  text: string,
  path: readonly ConfigPathSegment[],
): { container: Json5Container; index: number } | undefined {
  let container = rootObject(text);
  for (const [step, segment] of path.entries()) {
    const index = findEntry(container, segment);
    const entry = container.entries[index];
    if (entry === undefined) return undefined;
    if (step === path.length - 1) return { container, index };
    if (entry.value.kind === "scalar") return undefined;
    container = entry.value;
  }
  return undefined;
}

function setText(text: string, path: readonly ConfigPathSegment[], value: unknown): string {
  const root = rootObject(text);
  const style = detectStyle(text, root);
  let container = root;
  for (const [step, segment] of path.entries()) {
    const entry = container.entries[findEntry(container, segment)];
    if (entry === undefined) {
      return insertEntry(text, container, segment, nest(path.slice(step + 1), value), style);
    }
    if (step === path.length - 1) return replaceValue(text, entry.value, value, style);
    if (entry.value.kind === "scalar") break;
    container = entry.value;
  }
  throw new ToolsiftError("INVALID_REQUEST", "The config path does not lead to an object or array.");
}

/** The value to insert for a path whose tail does not exist yet (`[0]` becomes a one-element array). */
function nest(rest: readonly ConfigPathSegment[], value: unknown): unknown {
  return rest.reduceRight<unknown>(
    (inner, segment) => (typeof segment === "number" ? [inner] : { [segment]: inner }),
    value,
  );
}

function replaceValue(text: string, node: Json5Node, value: unknown, style: TextStyle): string {
  const original = text.slice(node.start, node.end);
  const formatted = formatJson5Value(value, {
    indent: lineIndent(text, node.start),
    unit: style.unit,
    newline: style.newline,
    trailingComma: style.trailingComma,
    quote: original.startsWith("'") ? "'" : '"',
    inline: !/[\r\n]/u.test(original),
    column: node.start - lineStart(text, node.start),
  });
  return applySplices(text, [{ from: node.start, to: node.end, text: formatted }]);
}

function insertEntry(
  text: string,
  container: Json5Container,
  key: ConfigPathSegment,
  value: unknown,
  style: TextStyle,
): string {
  const sibling = container.entries[0];
  const quoteKeys =
    container.kind === "object" && sibling !== undefined ? text[sibling.start] === '"' : style.quoteKeys;
  const keyText = typeof key === "number" ? "" : `${formatJson5Key(key, { quoteKeys })}: `;
  const containerIndent = lineIndent(text, container.start);
  const close = container.end - 1;
  const last = container.entries.at(-1);
  const format = (indent: string, inline: boolean, column: number) =>
    formatJson5Value(value, { ...style, quoteKeys, indent, inline, column: column + keyText.length });

  if (last === undefined && text.slice(container.start + 1, close).trim() === "") {
    const inner = containerIndent + style.unit;
    const line = `${inner}${keyText}${format(inner, true, inner.length)}${style.trailingComma ? "," : ""}`;
    const [open, end] = container.kind === "object" ? ["{", "}"] : ["[", "]"];
    const block = [open, line, `${containerIndent}${end}`].join(style.newline);
    return applySplices(text, [{ from: container.start, to: container.end, text: block }]);
  }

  const multiLine = last === undefined || /[\r\n]/u.test(text.slice(last.value.end, close));
  if (last !== undefined && !multiLine) {
    const inline = format(containerIndent, true, last.value.end - lineStart(text, last.value.end) + 2);
    const splice =
      last.commaAt === undefined
        ? { from: last.value.end, to: last.value.end, text: `, ${keyText}${inline}` }
        : { from: last.commaAt + 1, to: last.commaAt + 1, text: ` ${keyText}${inline},` };
    return applySplices(text, [splice]);
  }

  const indent =
    last !== undefined && startsLine(text, last.start)
      ? text.slice(lineStart(text, last.start), last.start)
      : containerIndent + style.unit;
  const trailing = last === undefined ? style.trailingComma : last.commaAt !== undefined;
  const line = `${indent}${keyText}${format(indent, true, indent.length)}${trailing ? "," : ""}`;
  const splices: Splice[] = startsLine(text, close)
    ? [{ from: lineStart(text, close), to: lineStart(text, close), text: `${line}${style.newline}` }]
    : [{ from: close, to: close, text: `${style.newline}${line}${style.newline}${containerIndent}` }];
  if (last !== undefined && last.commaAt === undefined) {
    splices.push({ from: last.value.end, to: last.value.end, text: "," });
  }
  return applySplices(text, splices);
}

function removeEntry(text: string, container: Json5Container, index: number): string {
  const entry = container.entries[index] as Json5Entry;
  const previous = container.entries[index - 1];
  const next = container.entries[index + 1];
  const entryEnd = entry.commaAt === undefined ? entry.value.end : entry.commaAt + 1;
  const splices: Splice[] = [];

  const lineEnd = startsLine(text, entry.start) ? endOfLineAfter(text, entryEnd) : undefined;
  if (lineEnd !== undefined) {
    splices.push({ from: lineStart(text, entry.start), to: lineEnd, text: "" });
    if (next === undefined && entry.commaAt === undefined && previous?.commaAt !== undefined) {
      splices.push({ from: previous.commaAt, to: previous.commaAt + 1, text: "" });
    }
  } else if (next !== undefined) {
    splices.push({ from: entry.start, to: next.start, text: "" });
  } else if (previous !== undefined) {
    splices.push(
      entry.commaAt !== undefined && previous.commaAt !== undefined
        ? { from: previous.commaAt + 1, to: entryEnd, text: "" }
        : { from: previous.value.end, to: entryEnd, text: "" },
    );
  } else {
    splices.push({ from: entry.start, to: entryEnd, text: "" });
  }

  const edited = applySplices(text, splices);
  if (container.entries.length > 1) return edited;
  // The container is now empty: collapse `{ }` or a block of blank lines to `{}`, unless comments remain inside.
  const removed = text.length - edited.length;
  const end = container.end - removed;
  if (edited.slice(container.start + 1, end - 1).trim() !== "") return edited;
  const empty = container.kind === "object" ? "{}" : "[]";
  return applySplices(edited, [{ from: container.start, to: end, text: empty }]);
}

/** Applies non-overlapping splices, latest first so earlier offsets stay valid. */
function applySplices(text: string, splices: readonly Splice[]): string {
  let result = text;
  for (const splice of [...splices].sort((a, b) => b.from - a.from)) {
    result = result.slice(0, splice.from) + splice.text + result.slice(splice.to);
  }
  return result;
}

function lineStart(text: string, pos: number): number {
  let start = pos;
  while (start > 0 && !isLineTerminator(text[start - 1] as string)) start -= 1;
  return start;
}

/** True when only whitespace precedes `pos` on its line. */
function startsLine(text: string, pos: number): boolean {
  return text.slice(lineStart(text, pos), pos).trim() === "";
}

/** The leading whitespace of the line holding `pos`. */
function lineIndent(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/u.exec(text.slice(start, pos))?.[0] ?? "";
}

/**
 * When only spaces and comments follow `pos` up to the end of its line, the index just past that line's break
 * (so the line can be removed whole, its trailing comment with it); otherwise undefined.
 */
function endOfLineAfter(text: string, pos: number): number | undefined {
  let at = pos;
  for (;;) {
    while (text[at] === " " || text[at] === "\t") at += 1;
    if (text.startsWith("//", at)) {
      while (at < text.length && !isLineTerminator(text[at] as string)) at += 1;
    } else if (text.startsWith("/*", at)) {
      const close = text.indexOf("*/", at + 2);
      if (close === -1 || /[\r\n\u2028\u2029]/u.test(text.slice(at, close))) return undefined;
      at = close + 2;
      continue;
    }
    break;
  }
  if (at >= text.length) return at;
  if (text.startsWith("\r\n", at)) return at + 2;
  return isLineTerminator(text[at] as string) ? at + 1 : undefined;
}

/** Line break, indentation unit and trailing-comma habit of the file, from its first multi-line container. */
function detectStyle(text: string, root: Json5Container): TextStyle {
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  let unit: string | undefined;
  let trailingComma: boolean | undefined;
  const pending: Json5Container[] = [root];
  for (let container = pending.pop(); container !== undefined; container = pending.pop()) {
    const first = container.entries[0];
    const last = container.entries.at(-1);
    if (first !== undefined && unit === undefined && startsLine(text, first.start)) {
      const outer = lineIndent(text, container.start);
      const inner = text.slice(lineStart(text, first.start), first.start);
      if (inner.length > outer.length && inner.startsWith(outer)) unit = inner.slice(outer.length);
    }
    if (last !== undefined && trailingComma === undefined) {
      if (/[\r\n]/u.test(text.slice(last.value.end, container.end - 1)))
        trailingComma = last.commaAt !== undefined;
    }
    for (const entry of container.entries) if (entry.value.kind !== "scalar") pending.push(entry.value);
  }
  const firstKey = root.entries[0];
  const quoteKeys = firstKey !== undefined && text[firstKey.start] === '"';
  return { newline, unit: unit ?? "  ", trailingComma: trailingComma ?? true, quoteKeys };
}
