import { type Caller, callerHasScope } from "../../runtime/http-guard/index.js";
import type { ConsoleBackend } from "../console/index.js";
import { requireAgentAllowed } from "./caller-access.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError } from "./gateway-error.js";
import { requireKnownAgent } from "./resolve-run-target.js";
import { readAgentId } from "./run-target.js";

/**
 * The tools page's search box and tool details: `tool_search` and `tool_describe` as a run of the agent
 * would answer them (`Runner.searchTools` / `describeTool`, no run made), for a key with `runs` that may use
 * the agent: the same checks as the tools page (`/v1/tools/effective`). An unknown tool is a 404 with the
 * very text the model would read; with Tool Search off the answer has no `answer` (the model has no such
 * control), only the bytes.
 */
export function consoleToolSearch(
  gateway: GatewayContext,
): Pick<ConsoleBackend, "searchTools" | "describeTool"> {
  const { runner } = gateway;
  return {
    searchTools: async (caller, agentId, look) => {
      const agent = allowedAgent(gateway, caller, agentId, "searching the tools");
      if (runner.searchTools === undefined) throw cannotLook("search");
      if ("queries" in look) return runner.searchTools({ agentId: agent, queries: look.queries });
      return runner.searchTools({
        agentId: agent,
        query: look.query,
        ...(look.limit === undefined ? {} : { limit: look.limit }),
      });
    },
    describeTool: async (caller, agentId, id) => {
      const agent = allowedAgent(gateway, caller, agentId, "describing a tool");
      if (runner.describeTool === undefined) throw cannotLook("describe");
      const described = await runner.describeTool(agent, id);
      const answer = described.answer;
      if (answer?.isError === true && answer.errorCode === "UNKNOWN_TOOL") {
        throw new GatewayError(404, answer.output, {
          type: "not_found_error",
          code: "unknown_tool",
          param: "id",
        });
      }
      return described;
    },
  };
}

/** The agent id, once the key holds `runs` and may use the (known) agent; 403 / 404 / 400 otherwise. */
function allowedAgent(gateway: GatewayContext, caller: Caller, agentId: string, what: string): string {
  if (!callerHasScope(caller, "runs")) {
    throw new GatewayError(
      403,
      `key "${caller.keyId}" lacks the scope "runs" that ${what} needs: add "runs" to its scopes in gateway.auth.keys, or sign in with a key that has it.`,
      { code: "insufficient_scope" },
    );
  }
  const agent = readAgentId(agentId, "agent");
  requireKnownAgent(gateway, agent, "agent");
  requireAgentAllowed(caller, agent, "agent");
  return agent;
}

function cannotLook(what: string): GatewayError {
  return new GatewayError(404, `this gateway's runner cannot ${what} an agent's tools without a run.`, {
    type: "not_found_error",
    code: "not_supported",
  });
}
