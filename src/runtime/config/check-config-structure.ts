import { describeValue } from "../../shared/text/index.js";
import { type ConfigPathSegment, formatConfigPath, isPlainRecord } from "./config-path.js";
import { readEnvReference } from "./env-reference.js";
import { MAX_CONFIG_DEPTH } from "./limits.js";

/** A structural problem, with the raw path segments so later checks can skip what lies under it. */
export interface StructureIssue {
  segments: ConfigPathSegment[];
  path: string;
  message: string;
}

const FORBIDDEN_KEYS = new Set(["__proto__"]);

/**
 * Checks what the schema cannot see, over the whole value including free-form parts (plugin config):
 * nesting depth, `__proto__` keys, malformed `env:` references, and values that are not JSON data.
 * Iterative, so a hostile depth cannot overflow the stack; never throws.
 */
export function checkConfigStructure(root: unknown): StructureIssue[] {
  const issues: StructureIssue[] = [];
  const report = (segments: ConfigPathSegment[], message: string) =>
    issues.push({ segments, path: formatConfigPath(segments), message });
  const stack: { value: unknown; segments: ConfigPathSegment[]; forbiddenKey?: string }[] = [
    { value: root, segments: [] },
  ];

  while (stack.length > 0) {
    const { value, segments, forbiddenKey } = stack.pop()!;
    if (forbiddenKey !== undefined) {
      report(segments, `${JSON.stringify(forbiddenKey)} is not allowed as a key`);
      continue;
    }
    if (typeof value === "string") {
      if (readEnvReference(value).kind === "malformed") {
        report(segments, '"env:" must be followed by an environment variable name (letters, digits and _)');
      }
      continue;
    }
    if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean") {
      continue;
    }
    const isArray = safeIsArray(value);
    if (isArray === undefined) {
      report(segments, "could not be read");
      continue;
    }
    if (!isArray && !isPlainRecord(value)) {
      report(segments, `expected JSON data (got ${describeValue(value)})`);
      continue;
    }
    if (segments.length >= MAX_CONFIG_DEPTH) {
      report(segments, `nested deeper than ${MAX_CONFIG_DEPTH} levels`);
      continue;
    }
    const children = readChildren(value as object, isArray);
    if (children === undefined) {
      report(segments, "could not be read");
      continue;
    }
    // Pushed in reverse so issues come out in document order.
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const [key, child] = children[index]!;
      const childSegments = [...segments, key];
      if (typeof key === "string" && FORBIDDEN_KEYS.has(key)) {
        stack.push({ value: undefined, segments: childSegments, forbiddenKey: key });
      } else stack.push({ value: child, segments: childSegments });
    }
  }
  return issues;
}

function safeIsArray(value: unknown): boolean | undefined {
  try {
    return Array.isArray(value);
  } catch {
    return undefined;
  }
}

function readChildren(value: object, isArray: boolean): [ConfigPathSegment, unknown][] | undefined {
  try {
    if (isArray) return Array.from(value as unknown[], (item, index) => [index, item]);
    return Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  } catch {
    return undefined;
  }
}
