import { cutText, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";

/** One step of a path into the config: an object key or an array index. */
export type ConfigPathSegment = string | number;

/** Shown for a problem with the file as a whole (e.g. it holds an array). */
export const TOP_LEVEL_PATH = "(top level)";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/u;

/**
 * Renders a path the way the file reads: `agents.list[0].id`, `mcp.servers["my server"]`. Long keys are cut
 * so a hostile key cannot flood a message.
 */
export function formatConfigPath(segments: readonly ConfigPathSegment[]): string {
  if (segments.length === 0) return TOP_LEVEL_PATH;
  let text = "";
  for (const segment of segments) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) {
      const key = cutText(segment, LONGEST_SHOWN_VALUE);
      text += text === "" ? key : `.${key}`;
    } else text += `[${cutText(JSON.stringify(segment), LONGEST_SHOWN_VALUE)}]`;
  }
  return text;
}

/** The value at `segments` in `root`, reading own properties only; `found` is false when any step is missing. */
export function readConfigPath(
  root: unknown,
  segments: readonly ConfigPathSegment[],
): { found: boolean; value: unknown } {
  let current: unknown = root;
  try {
    for (const segment of segments) {
      if (typeof current !== "object" || current === null) return { found: false, value: undefined };
      if (!Object.hasOwn(current, segment)) return { found: false, value: undefined };
      current = (current as Record<string | number, unknown>)[segment];
    }
  } catch {
    return { found: false, value: undefined };
  }
  return { found: true, value: current };
}

/** The config's name for `isPlainObject`: `{}` or a null-prototype object; never throws. */
export { isPlainObject as isPlainRecord } from "../../shared/schema/index.js";
