import { invalidRequest } from "./gateway-error.js";
import { readAgentId } from "./run-target.js";

/** The model name of the default agent; `toolsift/<agentId>` names any agent (`GET /v1/models`). */
export const MODEL_NAME_PREFIX = "toolsift";

/** The model name of an agent as `GET /v1/models` lists it: `toolsift/<agentId>`. */
export function agentModelName(agentId: string): string {
  return `${MODEL_NAME_PREFIX}/${agentId}`;
}

/**
 * The agent a request's `model` names: `toolsift/<agentId>` that agent. The generic `toolsift` names none
 * (it defers to `x-toolsift-agent`, and means the default agent without it), and so does any other model
 * name (a client's default such as `gpt-4o`): the header or the default picks the agent and the agent's
 * configured model answers. A malformed agent id after `toolsift/` is a 400.
 */
export function agentFromModel(model: string | undefined): string | undefined {
  if (model === undefined || !model.startsWith(`${MODEL_NAME_PREFIX}/`)) return undefined;
  const agentId = model.slice(MODEL_NAME_PREFIX.length + 1);
  if (agentId === "")
    throw invalidRequest(
      "model",
      `model "${MODEL_NAME_PREFIX}/" names no agent: use "${MODEL_NAME_PREFIX}/<agentId>".`,
    );
  return readAgentId(agentId, "model");
}
