import { ToolsiftError } from "../../shared/errors/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_ARGS_DEPTH, MAX_ARGS_NODES, MAX_QUOTED_SELECTOR_CHARS } from "./limits.js";

type PathLink = { parent: PathLink | undefined; key: string | number };
type Pending = { value: unknown; path: PathLink; depth: number };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/u;

/**
 * Checks that `tool_call` arguments are JSON data before anything runs: no functions, symbols, BigInts or
 * non-finite numbers, at most 128 levels deep (which also stops cycles), at most 200,000 values, and
 * readable (no throwing getters or revoked Proxies). `undefined` values are allowed (JSON drops them).
 * Walks iteratively, so 10,000 levels of nesting cannot overflow the stack. Throws ToolsiftError
 * INVALID_ARGUMENTS (`Invalid arguments for tool "<id>": ...`, like the executor's) naming the offending path.
 */
export function checkJsonArgs(args: Record<string, unknown>, toolId: string): void {
  const failure = (message: string) =>
    new ToolsiftError(
      "INVALID_ARGUMENTS",
      `Invalid arguments for tool "${cutText(toolId, MAX_QUOTED_SELECTOR_CHARS)}": ${message}`,
    );
  const root: PathLink = { parent: undefined, key: "args" };
  const pending: Pending[] = [{ value: args, path: root, depth: 1 }];
  let nodes = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path, depth } = next;
    nodes += 1;
    if (nodes > MAX_ARGS_NODES) {
      throw failure(`args hold more than ${MAX_ARGS_NODES} values; pass less data per call.`);
    }
    switch (typeof value) {
      case "function":
      case "symbol":
      case "bigint":
        throw failure(
          `${formatPath(path)} is a ${typeof value}, which is not JSON data; pass JSON values only.`,
        );
      case "number":
        if (!Number.isFinite(value)) {
          throw failure(
            `${formatPath(path)} is ${String(value)}, which is not JSON data; pass finite numbers only.`,
          );
        }
        continue;
      case "object":
        if (value === null) continue;
        break;
      default:
        continue;
    }
    if (depth >= MAX_ARGS_DEPTH) {
      throw failure(
        `args nest deeper than ${MAX_ARGS_DEPTH} levels (or contain a cycle); pass flatter JSON data.`,
      );
    }
    // Pushed in reverse so the walk meets values in declaration order.
    for (const [key, child] of ownValues(value, path, failure).reverse()) {
      pending.push({ value: child, path: { parent: path, key }, depth: depth + 1 });
    }
  }
}

function ownValues(
  value: object,
  path: PathLink,
  failure: (message: string) => ToolsiftError,
): Array<[string | number, unknown]> {
  try {
    if (Array.isArray(value)) {
      const items: Array<[number, unknown]> = [];
      for (let index = 0; index < value.length && index <= MAX_ARGS_NODES; index += 1)
        items.push([index, value[index]]);
      return items;
    }
    return Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  } catch {
    throw failure(`${formatPath(path)} could not be read; pass plain JSON data.`);
  }
}

function formatPath(path: PathLink): string {
  const keys: Array<string | number> = [];
  for (let link: PathLink | undefined = path; link; link = link.parent) keys.push(link.key);
  keys.reverse();
  const [head, ...rest] = keys;
  let text = String(head);
  for (const key of rest) {
    text +=
      typeof key === "number" ? `[${key}]` : IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    if (text.length > MAX_QUOTED_SELECTOR_CHARS) break;
  }
  return cutText(text, MAX_QUOTED_SELECTOR_CHARS);
}
