/** The first lines of the server instructions: what this server is and how to use the three controls. */
export const SERVE_INTRO = [
  "toolsift: Tool Search in front of many tools. Only a few tools are listed; the rest are found on demand.",
  "1. tool_search: find tools with English keywords; each result carries an id.",
  '2. tool_describe: load a tool\'s full input schema when its search result shows input "unknown".',
  '3. tool_call: run a tool with { "id": <id or unique name>, "args": { ...the tool\'s parameters } }.',
].join("\n");

/** The line used instead of the controls' guide when Tool Search is off and every tool is listed. */
export const SERVE_INTRO_DIRECT =
  "toolsift: every tool is listed directly (Tool Search is off in the config).";

/**
 * The `instructions` of `toolsift mcp serve`: the intro, the upstream servers by their (operator-chosen,
 * trusted) names, then the directory text, so clients that show instructions give the model the same
 * bounded overview the gateway puts in its system prompt.
 */
export function serveInstructions(options: {
  directory: string | undefined;
  servers: readonly string[];
}): string {
  const parts = [options.directory === undefined ? SERVE_INTRO_DIRECT : SERVE_INTRO];
  if (options.servers.length > 0) parts.push(`Upstream MCP servers: ${options.servers.join(", ")}.`);
  if (options.directory !== undefined) parts.push(options.directory);
  return parts.join("\n\n");
}
