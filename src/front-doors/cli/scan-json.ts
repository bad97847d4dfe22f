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

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/**
 * Scans a JSON text without building values, for messages that point at a line: returns the first syntax
 * error, or `undefined` when the text is valid JSON. `onValue` is told the path and line of every value
 * start (array indexes as numbers). Iterative, so deep nesting cannot overflow the stack.
 */
export function scanJson(
  text: string,
  onValue?: (path: JsonValuePath, line: number) => void,
): JsonSyntaxError | undefined {
  const stack: Frame[] = [];
  let position = 0;
  let line = 1;
  let state: State = "value";

  const advanceTo = (end: number): void => {
    for (let index = position; index < end; index += 1) if (text.charCodeAt(index) === 10) line += 1;
    position = end;
  };
  const skipWhitespace = (): void => {
    WHITESPACE.lastIndex = position;
    WHITESPACE.test(text);
    advanceTo(WHITESPACE.lastIndex);
  };
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = position;
    const found = pattern.exec(text);
    return found?.[0];
  };
  const fail = (reason: string): JsonSyntaxError => ({ line, reason });
  const path: JsonValuePath = {
    get depth() {
      return stack.length;
    },
    keyAt(level) {
      const frame = stack[level];
      return frame === undefined ? undefined : frame.kind === "array" ? frame.index : frame.key;
    },
  };
  const shown = (): string =>
    position >= text.length ? "end of input" : JSON.stringify(text.charAt(position));

  for (;;) {
    skipWhitespace();
    const char = text.charAt(position);
    const top = stack.at(-1);
    if (state === "value" || state === "value-or-close") {
      if (state === "value-or-close" && char === "]") {
        stack.pop();
        advanceTo(position + 1);
        state = "after";
        continue;
      }
      onValue?.(path, line);
      if (char === "{") {
        stack.push({ kind: "object", key: "" });
        advanceTo(position + 1);
        state = "key-or-close";
        continue;
      }
      if (char === "[") {
        stack.push({ kind: "array", index: 0 });
        advanceTo(position + 1);
        state = "value-or-close";
        continue;
      }
      const token =
        char === '"'
          ? match(STRING)
          : char === "-" || (char >= "0" && char <= "9")
            ? match(NUMBER)
            : ["true", "false", "null"].find((literal) => text.startsWith(literal, position));
      if (token === undefined) {
        return fail(char === '"' ? "unterminated or invalid string" : `expected a value, found ${shown()}`);
      }
      advanceTo(position + token.length);
      state = "after";
      continue;
    }
    if (state === "key" || state === "key-or-close") {
      if (state === "key-or-close" && char === "}") {
        stack.pop();
        advanceTo(position + 1);
        state = "after";
        continue;
      }
      if (char !== '"') return fail(`expected a property name in double quotes, found ${shown()}`);
      const key = match(STRING);
      if (key === undefined) return fail("unterminated or invalid string");
      advanceTo(position + key.length);
      skipWhitespace();
      if (text.charAt(position) !== ":") return fail(`expected ":" after a property name, found ${shown()}`);
      advanceTo(position + 1);
      if (top?.kind === "object") top.key = JSON.parse(key) as string;
      state = "value";
      continue;
    }
    // state === "after": a value just ended.
    if (top === undefined) {
      return position >= text.length ? undefined : fail(`unexpected ${shown()} after the JSON value`);
    }
    if (char === ",") {
      advanceTo(position + 1);
      if (top.kind === "array") {
        top.index += 1;
        state = "value";
      } else {
        state = "key";
      }
      continue;
    }
    const close = top.kind === "array" ? "]" : "}";
    if (char === close) {
      stack.pop();
      advanceTo(position + 1);
      continue;
    }
    return fail(`expected "," or "${close}", found ${shown()}`);
  }
}

/** True when `path` is exactly `expected` (array indexes as numbers). */
export function isJsonPath(path: JsonValuePath, expected: readonly (string | number)[]): boolean {
  return path.depth === expected.length && expected.every((key, level) => path.keyAt(level) === key);
}

/** True when `path` is an element of the array at `parent`. */
export function isJsonElementOf(path: JsonValuePath, parent: readonly (string | number)[]): boolean {
  return path.depth === parent.length + 1 && parent.every((key, level) => path.keyAt(level) === key);
}
