import type { ToolSearchMode } from "./types.js";

/** The heading line the directory starts with. */
export const DIRECTORY_HEADING = "### Deferred Tool Schemas";

/** The line above the rows. */
export const DIRECTORY_INTRO = "Available deferred-schema tools:";

/** The line that replaces the intro when no row is listed and none was omitted. */
export const DIRECTORY_EMPTY = "Available deferred-schema tools: none.";

/** Row text for an entry without a description. */
export const NO_DESCRIPTION = "No description.";

/** The trusted line standing in for MCP and client tools, whose names and descriptions are never copied. */
export const UNTRUSTED_TOOLS_LINE =
  "Policy-approved MCP and client tools may also be found through tool_search; their names and descriptions are not listed here.";

const DISCOVERY_HINT =
  "Use tool_search to find tools not listed here, and tool_describe to load a full schema when the compact signature is not enough.";

/** Footer lines per mode: how deferred tools are called, then where to find more. */
export const DIRECTORY_FOOTER: Readonly<Record<ToolSearchMode, readonly string[]>> = Object.freeze({
  tools: Object.freeze([
    'Deferred tools are not directly callable: call tool_call with the tool\'s id or name in "id" and every tool parameter in "args".',
    DISCOVERY_HINT,
  ]),
  directory: Object.freeze([
    'A deferred tool with a unique name may be called directly by that name, or through tool_call with its id or name in "id" and every tool parameter in "args".',
    DISCOVERY_HINT,
  ]),
});

/** The line saying how many rows were dropped or could not be listed. */
export function omittedLine(count: number): string {
  return `${count} additional tools omitted.`;
}
