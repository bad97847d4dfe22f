import JSON5 from "json5";
import { type ConfigPathSegment, MAX_CONFIG_DEPTH } from "../../runtime/config/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { cutText, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";

const PATH_HELP =
  'Write keys separated by dots and array indexes in brackets, e.g. tools.toolSearch, agents.list[0].id, or models.providers["llama.cpp"].apiKey.';

/** A key written bare: anything but dots, brackets, quotes and whitespace (`lm-studio`, `group_1`). */
const BARE_KEY = /^[^.[\]"'\s]+/u;
const INDEX = /^\[(0|[1-9][0-9]*)\]/u;
const QUOTED_KEY = /^\[("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\]/u;

/**
 * Parses a config path as the CLI takes it: dotted keys, `[n]` array indexes and `["key"]` for keys with
 * dots or spaces (`agents.list[0].id`, `mcp.servers["my server"].command`). Throws INVALID_REQUEST naming
 * the path and showing the syntax for anything else (empty, `a..b`, `a[x]`, `__proto__`).
 */
export function parseConfigPathExpression(expression: string): ConfigPathSegment[] {
  const segments: ConfigPathSegment[] = [];
  let rest = expression;
  while (rest.length > 0) {
    const afterDot = segments.length > 0 && rest.startsWith(".") ? rest.slice(1) : rest;
    const bare = segments.length === 0 || rest.startsWith(".") ? BARE_KEY.exec(afterDot) : null;
    const index = INDEX.exec(rest);
    const quoted = QUOTED_KEY.exec(rest);
    if (bare !== null) {
      segments.push(bare[0]);
      rest = afterDot.slice(bare[0].length);
    } else if (index?.[1] !== undefined && segments.length > 0) {
      const value = Number(index[1]);
      if (!Number.isSafeInteger(value)) throw invalidPath(expression, "the array index is too large");
      segments.push(value);
      rest = rest.slice(index[0].length);
    } else if (quoted?.[1] !== undefined) {
      segments.push(JSON5.parse(quoted[1]) as string);
      rest = rest.slice(quoted[0].length);
    } else {
      throw invalidPath(expression, `unexpected ${JSON.stringify(cutText(rest, LONGEST_SHOWN_VALUE))}`);
    }
    if (segments.length > MAX_CONFIG_DEPTH) {
      throw invalidPath(expression, `it is deeper than ${MAX_CONFIG_DEPTH} levels`);
    }
  }
  if (segments.length === 0) throw invalidPath(expression, "it is empty");
  if (segments.includes("__proto__")) throw invalidPath(expression, "__proto__ is not a config key");
  return segments;
}

function invalidPath(expression: string, reason: string): ToolsiftError {
  return new ToolsiftError(
    "INVALID_REQUEST",
    `Invalid config path ${JSON.stringify(cutText(expression, LONGEST_SHOWN_VALUE * 2))}: ${reason}. ${PATH_HELP}`,
  );
}
