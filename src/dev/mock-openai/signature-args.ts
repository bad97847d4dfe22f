import { isObjectRecord } from "../../shared/schema/index.js";
import { MAX_ARGUMENT_DEPTH } from "./limits.js";
import { PLACEHOLDER_NUMBER, PLACEHOLDER_STRING } from "./schema-args.js";

/** A parsed compact signature type (the TypeScript-style text of `signatures/`). */
type SignatureType =
  | { kind: "string" | "number" | "boolean" | "null" | "unknown" | "array" | "record" }
  | { kind: "literal"; value: unknown }
  | { kind: "object"; members: Array<{ key: string; optional: boolean; type: SignatureType }> }
  | { kind: "union" | "intersection"; members: SignatureType[] };

const NAMED: Readonly<Record<string, SignatureType>> = {
  string: { kind: "string" },
  number: { kind: "number" },
  boolean: { kind: "boolean" },
  null: { kind: "null" },
  unknown: { kind: "unknown" },
  never: { kind: "unknown" },
  true: { kind: "literal", value: true },
  false: { kind: "literal", value: false },
};

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/uy;
const IDENTIFIER = /[A-Za-z_$][\w$]*/uy;

/**
 * Arguments built from a compact input signature such as `{ a: string; b?: number /* integer *\/; c: "x" | "y" }`:
 * required keys only, each valued by its type (string `"qa"`, number 1, boolean `true`, the first literal of a
 * union, `[]` for arrays, `{}` for maps and `{ ... }`, nested objects by their own required keys). `"unknown"`
 * or text that does not parse gives `{}`.
 */
export function argumentsFromSignature(signature: string): Record<string, unknown> {
  try {
    const parser = new SignatureParser(signature);
    const type = parser.parseType(0);
    parser.expectEnd();
    const value = sampleValue(type, 0);
    return isObjectRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function sampleValue(type: SignatureType, depth: number): unknown {
  switch (type.kind) {
    case "string":
    case "unknown":
      return PLACEHOLDER_STRING;
    case "number":
      return PLACEHOLDER_NUMBER;
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return [];
    case "record":
      return {};
    case "literal":
      return type.value;
    case "union": {
      const preferred = type.members.find((member) => member.kind !== "null") ?? type.members[0];
      return preferred === undefined ? PLACEHOLDER_STRING : sampleValue(preferred, depth);
    }
    case "intersection": {
      const values = type.members.map((member) => sampleValue(member, depth));
      const objects = values.filter(isObjectRecord);
      return objects.length === values.length ? Object.assign({}, ...objects) : values[0];
    }
    case "object": {
      const result: Record<string, unknown> = {};
      if (depth >= MAX_ARGUMENT_DEPTH) return result;
      for (const member of type.members) {
        if (member.optional) continue;
        Object.defineProperty(result, member.key, {
          value: sampleValue(member.type, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return result;
    }
  }
}

/** A recursive-descent parser over the signature text; throws on anything it does not understand. */
class SignatureParser {
  private position = 0;

  constructor(private readonly text: string) {}

  parseType(depth: number): SignatureType {
    if (depth > MAX_ARGUMENT_DEPTH * 4) throw new Error("too deep");
    const members = [this.parseIntersection(depth)];
    while (this.take("|")) {
      if (this.take("...")) continue;
      members.push(this.parseIntersection(depth));
    }
    return members.length === 1 ? members[0]! : { kind: "union", members };
  }

  expectEnd(): void {
    this.skipBlank();
    if (this.position < this.text.length) throw new Error("trailing text");
  }

  private parseIntersection(depth: number): SignatureType {
    const members = [this.parsePrimary(depth)];
    while (this.take("&")) members.push(this.parsePrimary(depth));
    return members.length === 1 ? members[0]! : { kind: "intersection", members };
  }

  private parsePrimary(depth: number): SignatureType {
    this.skipBlank();
    const char = this.text[this.position];
    if (char === "{") return this.parseObject(depth);
    if (char === "(") {
      this.position += 1;
      const inner = this.parseType(depth + 1);
      this.expect(")");
      return inner;
    }
    if (char === '"') return { kind: "literal", value: this.readString() };
    const number = this.match(NUMBER);
    if (number !== undefined) return { kind: "literal", value: Number(number) };
    const word = this.readIdentifier();
    if (word === "Array") {
      this.expect("<");
      if (!this.take("...")) this.parseType(depth + 1);
      this.expect(">");
      return { kind: "array" };
    }
    if (word === "Record") {
      this.expect("<");
      this.parseType(depth + 1);
      this.expect(",");
      this.parseType(depth + 1);
      this.expect(">");
      return { kind: "record" };
    }
    const named = Object.hasOwn(NAMED, word) ? NAMED[word] : undefined;
    if (named === undefined) throw new Error(`unknown type ${word}`);
    return named;
  }

  private parseObject(depth: number): SignatureType {
    this.expect("{");
    const members: Array<{ key: string; optional: boolean; type: SignatureType }> = [];
    while (!this.take("}")) {
      if (this.take("...")) {
        this.take(";");
        continue;
      }
      this.skipBlank();
      const key = this.text[this.position] === '"' ? this.readString() : this.readIdentifier();
      if (typeof key !== "string") throw new Error("key is not a string");
      const optional = this.take("?");
      this.expect(":");
      members.push({ key, optional, type: this.parseType(depth + 1) });
      if (!this.take(";")) {
        this.expect("}");
        break;
      }
    }
    return { kind: "object", members };
  }

  private readString(): unknown {
    let end = this.position + 1;
    while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === "\\" ? 2 : 1;
    if (end >= this.text.length) throw new Error("unterminated string");
    const value: unknown = JSON.parse(this.text.slice(this.position, end + 1));
    this.position = end + 1;
    return value;
  }

  private readIdentifier(): string {
    this.skipBlank();
    const name = this.match(IDENTIFIER);
    if (name === undefined) throw new Error("expected a name");
    return name;
  }

  /** The text a sticky pattern matches at the current position (consumed), or `undefined`. */
  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.position;
    const found = pattern.exec(this.text);
    if (!found) return undefined;
    this.position += found[0].length;
    return found[0];
  }

  private take(token: string): boolean {
    this.skipBlank();
    if (!this.text.startsWith(token, this.position)) return false;
    this.position += token.length;
    return true;
  }

  private expect(token: string): void {
    if (!this.take(token)) throw new Error(`expected ${token}`);
  }

  /** Skips whitespace and `/* … *\/` notes (constraint notes carry nothing the planner needs). */
  private skipBlank(): void {
    for (;;) {
      while (this.position < this.text.length && /\s/u.test(this.text[this.position]!)) this.position += 1;
      if (!this.text.startsWith("/*", this.position)) return;
      const end = this.text.indexOf("*/", this.position + 2);
      if (end < 0) throw new Error("unterminated note");
      this.position = end + 2;
    }
  }
}
