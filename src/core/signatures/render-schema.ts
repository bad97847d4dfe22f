import { isObjectRecord, safeRead } from "../../shared/schema/index.js";
import { arrayNotes, numberNotes, stringNotes, withNotes } from "./constraint-notes.js";
import { formatKey, formatLiteral } from "./format-literal.js";
import {
  MAX_REQUIRED_NAMES,
  MAX_SIGNATURE_NESTING,
  MAX_SIGNATURE_VISITS,
  MAX_UNION_MEMBERS,
  type SignatureLimits,
} from "./limits.js";
import { ownKeys, readList } from "./schema-access.js";
import { selectKeys } from "./select-keys.js";

/** How one signature is rendered. */
export interface RenderOptions extends SignatureLimits {
  /**
   * `true` (output signatures): anything omitted, unsupported or open fails the whole rendering.
   * `false` (input signatures): omissions are marked with `...` or widened to `unknown`.
   */
  readonly complete: boolean;
  /** Annotate number, string and array constraints in a trailing block comment (input signatures). */
  readonly annotate: boolean;
}

/** Keywords whose meaning a compact type cannot show: an output schema using one is never complete. */
const HIDDEN_SHAPE_KEYWORDS = [
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "$dynamicRef",
  "$recursiveRef",
] as const;

/** Keywords that give a node its own shape (a "base"); with `anyOf`/`oneOf` beside them the shape is mixed. */
const BASE_KEYWORDS = ["type", "properties", "items", "const", "enum"] as const;
/** Keywords that further constrain a base; beside a union they also make an output shape mixed. */
const MIXED_KEYWORDS = [...BASE_KEYWORDS, "required", "additionalProperties"] as const;

/** A rendered part; union members are kept so nested unions flatten and deduplicate. */
interface Piece {
  readonly kind: "atom" | "union" | "intersection";
  readonly text: string;
  readonly members: readonly string[];
}

/** Thrown inside the renderer when the signature cannot be rendered; never escapes `renderSchema`. */
class RenderFailure {}

const OVERFLOW = "...";
const atom = (text: string): Piece => ({ kind: "atom", text, members: [text] });
const UNKNOWN = atom("unknown");
const NEVER = atom("never");
const NULL = atom("null");
const ARRAY_OF_UNKNOWN = atom("Array<unknown>");

/**
 * Renders a trusted schema as a compact TypeScript-style type, or `undefined` when it cannot be rendered
 * within `options` (over budget, a cycle, or, for complete renderings, anything omitted). Never throws.
 */
export function renderSchema(schema: unknown, options: RenderOptions): string | undefined {
  try {
    return new SchemaRenderer(options).node(schema, 0, 0).text;
  } catch {
    // RenderFailure, or anything a hostile schema managed to throw: the signature is simply unavailable.
    return undefined;
  }
}

class SchemaRenderer {
  private readonly path = new Set<object>();
  private visits = 0;

  constructor(private readonly options: RenderOptions) {}

  /** `depth` counts the objects and arrays opened above this node; `nesting` every schema level. */
  node(schema: unknown, depth: number, nesting: number): Piece {
    this.visits += 1;
    if (this.visits > MAX_SIGNATURE_VISITS || nesting > MAX_SIGNATURE_NESTING) throw new RenderFailure();
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isObjectRecord(schema)) return this.omitted(UNKNOWN);
    if (this.path.has(schema)) throw new RenderFailure();
    this.path.add(schema);
    try {
      if (safeRead(schema, "$ref") !== undefined) return this.omitted(UNKNOWN);
      if (this.options.complete && HIDDEN_SHAPE_KEYWORDS.some((keyword) => has(schema, keyword))) {
        throw new RenderFailure();
      }
      const shape = this.shape(schema, depth, nesting);
      return safeRead(schema, "nullable") === true ? this.union([shape, NULL]) : shape;
    } finally {
      this.path.delete(schema);
    }
  }

  /** In a complete rendering an omission fails everything; otherwise `fallback` stands in for it. */
  private omitted(fallback: Piece): Piece {
    if (this.options.complete) throw new RenderFailure();
    return fallback;
  }

  private fit(text: string): string {
    if (text.length > this.options.maxChars) throw new RenderFailure();
    return text;
  }

  private shape(schema: object, depth: number, nesting: number): Piece {
    const anyOf = safeRead(schema, "anyOf");
    const oneOf = safeRead(schema, "oneOf");
    const choice = anyOf ?? oneOf;
    if (this.options.complete && choice !== undefined) {
      const both = anyOf !== undefined && oneOf !== undefined;
      if (both || MIXED_KEYWORDS.some((keyword) => has(schema, keyword))) throw new RenderFailure();
    }
    let base: Piece | undefined;
    if (has(schema, "const")) base = this.literals([safeRead(schema, "const")], false);
    else if (has(schema, "enum")) base = this.enumeration(safeRead(schema, "enum"));
    else if (BASE_KEYWORDS.some((keyword) => has(schema, keyword))) base = this.typed(schema, depth, nesting);
    else if (choice !== undefined) base = this.choice(choice, depth, nesting);
    const allOf = safeRead(schema, "allOf");
    if (allOf !== undefined) return this.intersection(base, allOf, depth, nesting);
    return base ?? UNKNOWN;
  }

  private enumeration(value: unknown): Piece {
    const list = readList(value, MAX_UNION_MEMBERS);
    if (!list) return this.omitted(UNKNOWN);
    const overflow = list.length > MAX_UNION_MEMBERS;
    if (overflow) this.omitted(UNKNOWN);
    return this.literals(list.items, overflow);
  }

  private literals(values: readonly unknown[], overflow: boolean): Piece {
    const pieces = values.map((value) => {
      const text = formatLiteral(value);
      return text === undefined ? this.omitted(UNKNOWN) : atom(this.fit(text));
    });
    return this.union(pieces, overflow);
  }

  private choice(value: unknown, depth: number, nesting: number): Piece {
    const list = readList(value, MAX_UNION_MEMBERS);
    if (!list || list.length === 0) return this.omitted(UNKNOWN);
    const overflow = list.length > MAX_UNION_MEMBERS;
    if (overflow) this.omitted(UNKNOWN);
    return this.union(
      list.items.map((member) => this.node(member, depth, nesting + 1)),
      overflow,
    );
  }

  private intersection(base: Piece | undefined, value: unknown, depth: number, nesting: number): Piece {
    const list = readList(value, MAX_UNION_MEMBERS);
    if (!list || list.length > MAX_UNION_MEMBERS) throw new RenderFailure();
    const all = [
      ...(base ? [base] : []),
      ...list.items.map((member) => this.node(member, depth, nesting + 1)),
    ];
    if (all.some((piece) => piece.text === NEVER.text)) return NEVER;
    const pieces = uniqueBy(
      all.filter((piece) => piece.text !== UNKNOWN.text),
      (piece) => piece.text,
    );
    const [first] = pieces;
    if (!first) return UNKNOWN;
    if (pieces.length === 1) return first;
    const text = this.fit(
      pieces.map((piece) => (piece.kind === "union" ? `(${piece.text})` : piece.text)).join(" & "),
    );
    return { kind: "intersection", text, members: [text] };
  }

  private typed(schema: object, depth: number, nesting: number): Piece {
    const declared = safeRead(schema, "type");
    let names: readonly unknown[];
    if (declared === undefined) names = [has(schema, "properties") ? "object" : "array"];
    else if (typeof declared === "string") names = [declared];
    else {
      const list = readList(declared, MAX_UNION_MEMBERS);
      if (!list || list.length === 0 || list.length > MAX_UNION_MEMBERS) return this.omitted(UNKNOWN);
      names = list.items;
    }
    const annotate = this.options.annotate;
    const hasNumber = names.includes("number");
    const pieces: Piece[] = [];
    for (const name of names) {
      if (name === "integer" && hasNumber) continue; // `number` already covers it
      if (name === "string") pieces.push(atom(withNotes("string", annotate ? stringNotes(schema) : [])));
      else if (name === "number" || name === "integer") {
        pieces.push(atom(withNotes("number", annotate ? numberNotes(schema, name === "integer") : [])));
      } else if (name === "boolean" || name === "null") pieces.push(atom(name));
      else if (name === "array") pieces.push(this.array(schema, depth, nesting));
      else if (name === "object") pieces.push(this.object(schema, depth, nesting));
      else pieces.push(this.omitted(UNKNOWN));
    }
    return this.union(pieces);
  }

  private array(schema: object, depth: number, nesting: number): Piece {
    // At the depth limit an array keeps its level with `unknown` items (valid TypeScript, as the reference).
    if (depth >= this.options.maxDepth) return this.omitted(ARRAY_OF_UNKNOWN);
    const items = safeRead(schema, "items");
    const tuple = has(schema, "prefixItems") || readList(items, 0) !== undefined;
    let inner: Piece;
    if (tuple) inner = this.omitted(UNKNOWN);
    else inner = items === undefined ? UNKNOWN : this.node(items, depth + 1, nesting + 1);
    const notes = this.options.annotate ? arrayNotes(schema) : [];
    return atom(this.fit(withNotes(`Array<${inner.text}>`, notes)));
  }

  private object(schema: object, depth: number, nesting: number): Piece {
    const additional = safeRead(schema, "additionalProperties");
    const closed = additional === false;
    const empty = atom(closed ? "{}" : `{ ${OVERFLOW} }`);
    if (depth >= this.options.maxDepth) return this.omitted(atom(`{ ${OVERFLOW} }`));
    if (this.options.complete && !closed) throw new RenderFailure();
    const properties = safeRead(schema, "properties");
    if (properties === undefined) return closed ? empty : this.openMap(additional, depth, nesting);
    if (!isObjectRecord(properties)) return this.omitted(empty);
    const keys = ownKeys(properties);
    if (!keys) return this.omitted(empty);
    const required = this.requiredNames(schema);
    const selected = selectKeys(keys, required, this.options.maxProperties);
    const overflow = keys.length > selected.length;
    if (overflow) this.omitted(UNKNOWN);
    const parts: string[] = [];
    let length = 4;
    for (const key of selected) {
      if (key.length > this.options.maxChars) throw new RenderFailure();
      const value = this.node(safeRead(properties, key), depth + 1, nesting + 1);
      const part = `${formatKey(key)}${required.has(key) ? "" : "?"}: ${value.text}`;
      length += part.length + (parts.length > 0 ? 2 : 0);
      if (length > this.options.maxChars) throw new RenderFailure();
      parts.push(part);
    }
    if (overflow) parts.push(OVERFLOW);
    // Declared but empty `properties` is an object without parameters, open or not.
    if (parts.length === 0) return atom("{}");
    return atom(this.fit(`{ ${parts.join("; ")} }`));
  }

  /** An open object without `properties`: `Record<string, T>` when its extra values are typed, else `{ ... }`. */
  private openMap(additional: unknown, depth: number, nesting: number): Piece {
    const open = atom(`{ ${OVERFLOW} }`);
    if (!isObjectRecord(additional)) return open;
    const value = this.node(additional, depth + 1, nesting + 1);
    return value.text === UNKNOWN.text ? open : atom(this.fit(`Record<string, ${value.text}>`));
  }

  private requiredNames(schema: object): ReadonlySet<string> {
    const list = readList(safeRead(schema, "required"), MAX_REQUIRED_NAMES);
    if (!list) return new Set();
    if (list.length > MAX_REQUIRED_NAMES) this.omitted(UNKNOWN);
    return new Set(list.items.filter((item): item is string => typeof item === "string"));
  }

  /** Flattens nested unions, drops `never`, deduplicates, and keeps an overflow marker last. */
  private union(pieces: readonly Piece[], overflow = false): Piece {
    let more = overflow;
    const members: string[] = [];
    for (const piece of pieces) {
      if (piece.text === UNKNOWN.text) return UNKNOWN;
      if (piece.kind === "intersection") members.push(`(${piece.text})`);
      else if (piece.kind === "atom") {
        if (piece.text !== NEVER.text) members.push(piece.text);
      } else {
        for (const member of piece.members) {
          if (member === OVERFLOW) more = true;
          else members.push(member);
        }
      }
    }
    const unique = uniqueBy(members, (member) => member);
    if (!more && unique.length <= 1) {
      // One member left: return the piece it came from (never a union piece, which has two or more).
      const single = unique[0];
      if (single === undefined) return NEVER;
      return pieces.find((piece) => piece.text === single || `(${piece.text})` === single) ?? atom(single);
    }
    if (more) unique.push(OVERFLOW);
    return { kind: "union", text: this.fit(unique.join(" | ")), members: unique };
  }
}

function has(schema: object, keyword: string): boolean {
  return safeRead(schema, keyword) !== undefined;
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const itemKey = key(item);
    if (seen.has(itemKey)) return false;
    seen.add(itemKey);
    return true;
  });
}
