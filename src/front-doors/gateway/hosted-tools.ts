import { LRUCache } from "lru-cache";
import { invalidRequest } from "./gateway-error.js";
import { MAX_REPORTED_HOSTED_TOOL_TYPES } from "./limits.js";
import { quoteValue } from "./request/request-fields.js";

/** What the gateway does with a hosted tool: leave it out and report it, or refuse the request (400). */
export type HostedToolsSetting = "omit" | "reject";

/** `gateway.hostedTools` when the config does not set it. */
export const DEFAULT_HOSTED_TOOLS_SETTING: HostedToolsSetting = "omit";

/**
 * The reject switch: under `"reject"` a hosted tool (`type`, declared at `param`) is a 400 naming it; under
 * `"omit"` it is left out of the model's request (and reported).
 */
export function applyHostedToolsSetting(
  tool: { type: string; name: string },
  param: string,
  setting: HostedToolsSetting,
): void {
  if (setting === "omit") return;
  throw invalidRequest(
    param,
    `${param} is the hosted tool ${quoteValue(tool.type)} (${quoteValue(tool.name)}), which toolsift cannot run, and gateway.hostedTools is "reject": remove it from the request, or set gateway.hostedTools to "omit" to have such tools left out (they are reported).`,
    "unsupported_tool_type",
  );
}

/**
 * Logs each hosted tool type once per agent (one line per agent and type for the gateway's life), so an
 * operator learns what clients ask for without a line per request. The memory of what was logged is
 * bounded (`MAX_REPORTED_HOSTED_TOOL_TYPES`): past it, the pair logged longest ago is forgotten (and logged
 * again if it comes back), so invented types cannot grow it.
 */
export class HostedToolReporter {
  readonly #reported = new LRUCache<string, true>({ max: MAX_REPORTED_HOSTED_TOOL_TYPES });
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Logs the hosted tool types not yet logged for `agentId`. */
  report(agentId: string, types: readonly string[] | undefined): void {
    for (const type of types ?? []) {
      const key = `${agentId}\u0000${type}`;
      if (this.#reported.has(key)) continue;
      this.#reported.set(key, true);
      this.#log(
        `agent ${agentId}: hosted tool type ${quoteValue(type)} declared by a client is left out of the model's request: toolsift cannot run it (gateway.hostedTools: "omit"; the session log notes it on each turn that declares it)`,
      );
    }
  }
}
