import JSON5 from "json5";
import { MAX_CONFIG_DEPTH } from "../../runtime/config/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";

/** Widest value `config get` and `config set` write on one line; wider objects and arrays get a line per entry. */
const MAX_INLINE_VALUE_WIDTH = 100;

/** How {@link formatJson5Value} lays a value out. */
export interface Json5FormatOptions {
  /** Indentation of the line the value starts on. Default `""`. */
  indent?: string;
  /** One level of indentation. Default two spaces. */
  unit?: string;
  /** Line break. Default `"\n"`. */
  newline?: string;
  /** Put a comma after the last entry of multi-line objects and arrays. Default `true`. */
  trailingComma?: boolean;
  /** Quote for strings. Default `"`. */
  quote?: '"' | "'";
  /** Print objects and arrays on one line when they fit in MAX_INLINE_VALUE_WIDTH columns. Default `true`. */
  inline?: boolean;
  /** Column the value starts at, for the width check. Default 0. */
  column?: number;
  /** Quote every key, as JSON does. Default `false`: identifier keys stay bare. */
  quoteKeys?: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/u;

/**
 * Formats JSON data the way a person writes a toolsift config: unquoted identifier keys, double-quoted
 * strings, one line when it fits, otherwise one entry per line with trailing commas (entries without nested
 * content stay on one line when they fit). JSON5 parses the
 * result back to an equal value (NaN, Infinity and -0 included). Throws CONFIG_INVALID for a value nested
 * deeper than MAX_CONFIG_DEPTH levels (no config value is).
 */
export function formatJson5Value(value: unknown, options: Json5FormatOptions = {}): string {
  if (exceedsDepth(value, MAX_CONFIG_DEPTH)) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `The value is nested deeper than ${MAX_CONFIG_DEPTH} levels; no config value is. Flatten it.`,
    );
  }
  const settings = {
    indent: options.indent ?? "",
    unit: options.unit ?? "  ",
    newline: options.newline ?? "\n",
    trailingComma: options.trailingComma ?? true,
    quote: options.quote ?? '"',
    quoteKeys: options.quoteKeys ?? false,
  };
  if (options.inline ?? true) {
    const inline = formatInline(value, settings);
    if ((options.column ?? 0) + inline.length <= MAX_INLINE_VALUE_WIDTH) return inline;
  }
  return formatBlock(value, settings.indent, settings);
}

/** A key as written in the file: bare when it is an identifier (unless `quoteKeys`), else quoted. */
export function formatJson5Key(
  key: string,
  options: { quote?: '"' | "'"; quoteKeys?: boolean } = {},
): string {
  return IDENTIFIER.test(key) && options.quoteKeys !== true
    ? key
    : JSON5.stringify(key, { quote: options.quote ?? '"' });
}

type Settings = {
  unit: string;
  newline: string;
  trailingComma: boolean;
  quote: '"' | "'";
  quoteKeys: boolean;
};

function formatScalar(value: unknown, quote: '"' | "'"): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "string") return JSON5.stringify(value, { quote });
  if (typeof value === "boolean" || value === null) return String(value);
  return "null";
}

function entriesOf(value: object): [string | undefined, unknown][] {
  if (Array.isArray(value)) return value.map((item) => [undefined, item]);
  return Object.entries(value);
}

function formatInline(value: unknown, settings: Pick<Settings, "quote" | "quoteKeys">): string {
  if (typeof value !== "object" || value === null) return formatScalar(value, settings.quote);
  const isArray = Array.isArray(value);
  const parts = entriesOf(value).map(([key, item]) =>
    key === undefined
      ? formatInline(item, settings)
      : `${formatJson5Key(key, settings)}: ${formatInline(item, settings)}`,
  );
  if (parts.length === 0) return isArray ? "[]" : "{}";
  return isArray ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
}

function formatBlock(value: unknown, indent: string, settings: Settings): string {
  if (typeof value !== "object" || value === null) return formatScalar(value, settings.quote);
  const isArray = Array.isArray(value);
  const entries = entriesOf(value);
  if (entries.length === 0) return isArray ? "[]" : "{}";
  const inner = indent + settings.unit;
  const lines = entries.map(([key, item], index) => {
    const prefix = key === undefined ? "" : `${formatJson5Key(key, settings)}: `;
    const comma = index < entries.length - 1 || settings.trailingComma ? "," : "";
    return `${inner}${prefix}${formatChild(item, inner, inner.length + prefix.length, settings)}${comma}`;
  });
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  return [open, ...lines, `${indent}${close}`].join(settings.newline);
}

/** Inside a block: a value without nested content (`{ id: "main" }`, `["a", "b"]`) stays on one line when it fits. */
function formatChild(value: unknown, indent: string, column: number, settings: Settings): string {
  if (isFlat(value)) {
    const flat = formatInline(value, settings);
    if (column + flat.length <= MAX_INLINE_VALUE_WIDTH) return flat;
  }
  return formatBlock(value, indent, settings);
}

/** A scalar, or an object or array whose entries are scalars or empty. */
function isFlat(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.values(value).every(
    (item) => typeof item !== "object" || item === null || Object.keys(item).length === 0,
  );
}

/** True when `value` nests objects or arrays more than `limit` levels deep (checked without recursion). */
function exceedsDepth(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
