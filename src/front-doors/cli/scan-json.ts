import { createRequire } from "node:module";
import type { createScanner as CreateScanner, JSONScanner } from "jsonc-parser";

/**
 * jsonc-parser, loaded on the first scan: a catalog that loads cleanly is never scanned (its lines are
 * looked up only to name a bad tool), so `toolsift search` does not pay for loading it.
 */
let scannerFactory: typeof CreateScanner | undefined;
function createScanner(text: string, ignoreTrivia: boolean): JSONScanner {
  scannerFactory ??= (createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser"))
    .createScanner;
  return scannerFactory(text, ignoreTrivia);
}

/** A JSON syntax error: 1-based line and a short reason. */
export interface JsonSyntaxError {
  line: number;
  reason: string;
}

/** Where a value starts: its nesting depth and the key or index at each level (`keyAt(0)` is outermost). */
export interface JsonValuePath {
  readonly depth: number;
  keyAt(level: number): string | number | undefined;
}

type Frame = { kind: "array"; index: number } | { kind: "object"; key: string };
type State = "value" | "value-or-close" | "key" | "key-or-close" | "after";

const LITERALS = ["true", "false", "null"] as const;

/** jsonc-parser's token kinds (its `SyntaxKind`, a const enum that `verbatimModuleSyntax` cannot read). */
const Token = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  Null: 7,
  True: 8,
  False: 9,
  String: 10,
  Number: 11,
  LineBreak: 14,
  Trivia: 15,
  Unknown: 16,
  EOF: 17,
} as const;
/** jsonc-parser's `ScanError.None`. */
const NO_SCAN_ERROR = 0;

/**
 * Scans a JSON text without building values, for messages that point at a line: returns the first syntax
 * error, or `undefined` when the text is valid JSON. `onValue` is told the path and line of every value
 * start (array indexes as numbers). jsonc-parser's scanner reads the tokens; comments, which it knows, are
 * refused as JSON refuses them. The nesting is tracked here, iteratively (jsonc-parser's parser recurses), so
 * deep nesting cannot overflow the stack.
 */
export function scanJson(
  text: string,
  onValue?: (path: JsonValuePath, line: number) => void,
): JsonSyntaxError | undefined {
  const scanner = createScanner(text, false);
  const stack: Frame[] = [];
  let counted = 0;
  let line = 1;
  let state: State = "value";

  const lineAt = (offset: number): number => {
    for (; counted < offset; counted += 1) if (text.charCodeAt(counted) === 10) line += 1;
    return line;
  };
  const shown = (offset: number): string =>
    offset >= text.length ? "end of input" : JSON.stringify(text.charAt(offset));
  const fail = (offset: number, reason: string): JsonSyntaxError => ({ line: lineAt(offset), reason });
  const failAfterValue = (offset: number): JsonSyntaxError => {
    const top = stack.at(-1);
    if (top === undefined) return fail(offset, `unexpected ${shown(offset)} after the JSON value`);
    return fail(offset, `expected "," or "${top.kind === "array" ? "]" : "}"}", found ${shown(offset)}`);
  };
  const path: JsonValuePath = {
    get depth() {
      return stack.length;
    },
    keyAt(level) {
      const frame = stack[level];
      return frame === undefined ? undefined : frame.kind === "array" ? frame.index : frame.key;
    },
  };

  for (;;) {
    const token = scanner.scan();
    if (token === Token.Trivia || token === Token.LineBreak) continue;
    const offset = scanner.getTokenOffset();
    const top = stack.at(-1);
    if (state === "value" || state === "value-or-close") {
      if (state === "value-or-close" && token === Token.CloseBracket) {
        stack.pop();
        state = "after";
        continue;
      }
      onValue?.(path, lineAt(offset));
      if (token === Token.OpenBrace) {
        stack.push({ kind: "object", key: "" });
        state = "key-or-close";
        continue;
      }
      if (token === Token.OpenBracket) {
        stack.push({ kind: "array", index: 0 });
        state = "value-or-close";
        continue;
      }
      if (token === Token.String) {
        if (scanner.getTokenError() !== NO_SCAN_ERROR) return fail(offset, "unterminated or invalid string");
        state = "after";
        continue;
      }
      if (token === Token.Number) {
        state = "after";
        // A number cut short ("1.", "1e+") is the number before its dangling part, then an unexpected character.
        if (scanner.getTokenError() !== NO_SCAN_ERROR) return failAfterValue(offset + danglingPart(scanner));
        continue;
      }
      if (token === Token.True || token === Token.False || token === Token.Null) {
        state = "after";
        continue;
      }
      // A word that starts with a literal ("truex") is that literal, then an unexpected character.
      const literal = LITERALS.find((word) => text.startsWith(word, offset));
      if (token === Token.Unknown && literal !== undefined) {
        state = "after";
        return failAfterValue(offset + literal.length);
      }
      return fail(offset, `expected a value, found ${shown(offset)}`);
    }
    if (state === "key" || state === "key-or-close") {
      if (state === "key-or-close" && token === Token.CloseBrace) {
        stack.pop();
        state = "after";
        continue;
      }
      if (token !== Token.String)
        return fail(offset, `expected a property name in double quotes, found ${shown(offset)}`);
      if (scanner.getTokenError() !== NO_SCAN_ERROR) return fail(offset, "unterminated or invalid string");
      if (top?.kind === "object") top.key = scanner.getTokenValue();
      let next = scanner.scan();
      while (next === Token.Trivia || next === Token.LineBreak) next = scanner.scan();
      if (next !== Token.Colon) {
        const at = scanner.getTokenOffset();
        return fail(at, `expected ":" after a property name, found ${shown(at)}`);
      }
      state = "value";
      continue;
    }
    // state === "after": a value just ended.
    if (top === undefined) return token === Token.EOF ? undefined : failAfterValue(offset);
    if (token === Token.Comma) {
      if (top.kind === "array") {
        top.index += 1;
        state = "value";
      } else {
        state = "key";
      }
      continue;
    }
    if (token === (top.kind === "array" ? Token.CloseBracket : Token.CloseBrace)) {
      stack.pop();
      continue;
    }
    return failAfterValue(offset);
  }
}

/**
 * Where the dangling fraction or exponent of a number token cut short starts, from the token's start: the
 * scanner's value keeps a dangling "." ("1.") but not a dangling exponent ("1e+" is "1").
 */
function danglingPart(scanner: JSONScanner): number {
  const value = scanner.getTokenValue();
  return value.endsWith(".") ? value.length - 1 : value.length;
}

/** True when `path` is exactly `expected` (array indexes as numbers). */
export function isJsonPath(path: JsonValuePath, expected: readonly (string | number)[]): boolean {
  return path.depth === expected.length && expected.every((key, level) => path.keyAt(level) === key);
}

/** True when `path` is an element of the array at `parent`. */
export function isJsonElementOf(path: JsonValuePath, parent: readonly (string | number)[]): boolean {
  return path.depth === parent.length + 1 && parent.every((key, level) => path.keyAt(level) === key);
}
