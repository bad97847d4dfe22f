import { ToolsiftError } from "../../shared/errors/index.js";

/** A JSON5 value located in its source text: `start` is its first character, `end` is one past its last. */
export type Json5Node = Json5Scalar | Json5Container;

/** A string, number, boolean or null literal. */
export interface Json5Scalar {
  kind: "scalar";
  start: number;
  end: number;
}

/** An object or array, from its opening bracket to one past its closing bracket. */
export interface Json5Container {
  kind: "object" | "array";
  start: number;
  end: number;
  entries: Json5Entry[];
}

/** One object member or array element. */
export interface Json5Entry {
  /** The decoded key of an object member, or the index of an array element. */
  key: string | number;
  /** Where the entry starts: its key (object members) or its value (array elements). */
  start: number;
  value: Json5Node;
  /** Index of the comma that follows the entry, when there is one. */
  commaAt?: number;
}

type Frame = { node: Json5Container; pending?: { key: string | number; start: number } };

/**
 * Locates every value, key and comma of a JSON5 text, so an editor can change one value and leave every other
 * byte (comments, formatting) as it was. The text must already have parsed with `JSON5.parse`; this scanner
 * trusts that and only finds spans. Iterative, so deep nesting cannot overflow the stack.
 */
export function parseJson5Tree(text: string): Json5Node {
  const stack: Frame[] = [];
  let pos = skipTrivia(text, 0);
  for (;;) {
    let node: Json5Node;
    const frame = stack.at(-1);
    if (frame !== undefined) pos = skipTrivia(text, pos);
    if (frame !== undefined && text[pos] === closerOf(frame.node)) {
      pos += 1;
      frame.node.end = pos;
      stack.pop();
      node = frame.node;
    } else {
      if (frame !== undefined) pos = readEntryStart(text, pos, frame);
      const opener = text[pos];
      if (opener === "{" || opener === "[") {
        stack.push({ node: { kind: opener === "{" ? "object" : "array", start: pos, end: -1, entries: [] } });
        pos += 1;
        continue;
      }
      const end = scanAtom(text, pos);
      node = { kind: "scalar", start: pos, end };
      pos = end;
    }

    const parent = stack.at(-1);
    if (parent === undefined) {
      if (skipTrivia(text, pos) !== text.length) unexpected(text, pos);
      return node;
    }
    const pending = parent.pending ?? unexpected(text, pos);
    delete parent.pending;
    const entry: Json5Entry = { key: pending.key, start: pending.start, value: node };
    parent.node.entries.push(entry);
    pos = skipTrivia(text, pos);
    if (text[pos] === ",") {
      entry.commaAt = pos;
      pos += 1;
    }
  }
}

function closerOf(node: Json5Container): string {
  return node.kind === "object" ? "}" : "]";
}

/** Records where the next entry of `frame` starts (reading its key for objects); returns where its value starts. */
function readEntryStart(text: string, from: number, frame: Frame): number {
  if (frame.node.kind === "array") {
    frame.pending = { key: frame.node.entries.length, start: from };
    return from;
  }
  const keyEnd = scanAtom(text, from);
  frame.pending = { key: decodeKey(text.slice(from, keyEnd)), start: from };
  const colon = skipTrivia(text, keyEnd);
  if (text[colon] !== ":") unexpected(text, colon);
  return skipTrivia(text, colon + 1);
}

/** Index of the first character at or after `from` that is not whitespace or a comment. */
export function skipTrivia(text: string, from: number): number {
  let pos = from;
  while (pos < text.length) {
    const char = text[pos] as string;
    if (/\s/u.test(char)) pos += 1;
    else if (char === "/" && text[pos + 1] === "/") {
      pos += 2;
      while (pos < text.length && !isLineTerminator(text[pos] as string)) pos += 1;
    } else if (char === "/" && text[pos + 1] === "*") {
      const close = text.indexOf("*/", pos + 2);
      pos = close === -1 ? text.length : close + 2;
    } else break;
  }
  return pos;
}

/** True for the characters that end a line in JSON5 (and so end a `//` comment). */
export function isLineTerminator(char: string): boolean {
  return char === "\n" || char === "\r" || char === "\u2028" || char === "\u2029";
}

/** End of the string, number, literal or unquoted key starting at `from`. */
function scanAtom(text: string, from: number): number {
  const quote = text[from];
  if (quote === '"' || quote === "'") {
    let pos = from + 1;
    while (pos < text.length) {
      const char = text[pos];
      if (char === "\\") pos += 2;
      else if (char === quote) return pos + 1;
      else pos += 1;
    }
    return unexpected(text, from);
  }
  let pos = from;
  while (pos < text.length && !/[\s,:[\]{}/]/u.test(text[pos] as string)) pos += 1;
  return pos === from ? unexpected(text, from) : pos;
}

/** The name of an object key as written: quoted (JSON5 escapes) or an identifier (`\uXXXX` escapes). */
function decodeKey(raw: string): string {
  const quote = raw[0];
  if (quote === '"' || quote === "'") return decodeQuoted(raw.slice(1, -1));
  return raw.replace(/\\u([0-9A-Fa-f]{4})/gu, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "0": "\0",
};

function decodeQuoted(body: string): string {
  return body.replace(
    /\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|(\r\n|[\s\S]))/gu,
    (_, unicode?: string, hex?: string, other?: string) => {
      if (unicode !== undefined) return String.fromCharCode(Number.parseInt(unicode, 16));
      if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
      const char = other ?? "";
      if (isLineTerminator(char[0] ?? "")) return "";
      return SIMPLE_ESCAPES[char] ?? char;
    },
  );
}

function unexpected(text: string, pos: number): never {
  throw new ToolsiftError(
    "CONFIG_INVALID",
    `Could not locate the values of the config text (unexpected ${JSON.stringify(text.slice(pos, pos + 12))} at offset ${pos}); edit the file by hand.`,
  );
}
