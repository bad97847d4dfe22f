import type { RunRequest } from "../runner/index.js";
import { invalidRequest } from "./gateway-error.js";
import { MAX_REPORTED_HOSTED_TOOL_TYPES } from "./limits.js";
import { quoteValue } from "./request-fields.js";

/**
 * A tool a request declared that toolsift cannot run, left out of the model's request: a provider-hosted
 * tool (`web_search_20250305`, `bash_20250124`, an unknown typed tool, an `mcp_servers` entry), or the
 * client's own tool-search tool, whose job toolsift's Tool Search does (`kind: "tool-search"`).
 */
export type OmittedTool = { type: string; name: string; kind: "hosted" | "tool-search" };

/** What the gateway does with a hosted tool: leave it out and report it, or refuse the request (400). */
export type HostedToolsSetting = "omit" | "reject";

/**
 * The setting the routes use. `gateway.hostedTools` is not in this branch's config types yet; once it is,
 * the route passes the configured value to `applyHostedToolsSetting` instead of this default.
 */
export const DEFAULT_HOSTED_TOOLS_SETTING: HostedToolsSetting = "omit";

/**
 * The reject switch: under `"reject"` a hosted tool is a 400 naming it (`param`: where the request declared
 * it); under `"omit"` it is left out. A tool-search tool is never refused: toolsift's Tool Search serves it.
 */
export function applyHostedToolsSetting(tool: OmittedTool, param: string, setting: HostedToolsSetting): void {
  if (setting === "omit" || tool.kind === "tool-search") return;
  throw invalidRequest(
    param,
    `${param} is the hosted tool ${quoteValue(tool.type)} (${quoteValue(tool.name)}), which toolsift cannot run, and gateway.hostedTools is "reject": remove it from the request, or set gateway.hostedTools to "omit" to have such tools left out.`,
    "unsupported_tool_type",
  );
}

/** The run request with the tools its request left out, so the runner notes them in the session log. */
export function withOmittedTools(run: RunRequest, omitted: readonly OmittedTool[] | undefined): RunRequest {
  if (omitted === undefined || omitted.length === 0) return run;
  return { ...run, omittedTools: omitted.map(({ type, name }) => ({ type, name })) };
}

/**
 * Logs each omitted tool type once per agent (one line per agent and type for the gateway's life), so an
 * operator learns what a client asked for without a line per request. The memory of what was logged is
 * bounded (`MAX_REPORTED_HOSTED_TOOL_TYPES`): past it, it starts over.
 */
export class HostedToolReporter {
  readonly #reported = new Set<string>();
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Logs the types of `omitted` not yet logged for `agentId`. */
  report(agentId: string, omitted: readonly OmittedTool[] | undefined): void {
    for (const tool of omitted ?? []) {
      const key = `${agentId}\u0000${tool.type}`;
      if (this.#reported.has(key)) continue;
      if (this.#reported.size >= MAX_REPORTED_HOSTED_TOOL_TYPES) this.#reported.clear();
      this.#reported.add(key);
      this.#log(describeOmitted(agentId, tool));
    }
  }
}

function describeOmitted(agentId: string, tool: OmittedTool): string {
  const what = `agent ${agentId}: the client's tool ${quoteValue(tool.type)} (${quoteValue(tool.name)})`;
  if (tool.kind === "tool-search") {
    return `${what} is left out of the model's request: toolsift's own Tool Search finds the deferred tools.`;
  }
  return `${what} is a hosted tool toolsift cannot run: left out of the model's request (gateway.hostedTools "omit"); the session log notes it with each request that declares it.`;
}
