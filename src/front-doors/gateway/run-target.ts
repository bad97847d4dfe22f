import { MAIN_AGENT_ID } from "../../runtime/config/index.js";
import { isValidSessionKey } from "../../runtime/sessions/index.js";
import { invalidRequest } from "./gateway-error.js";

/** Header naming the agent of a run. */
export const AGENT_HEADER = "x-toolsift-agent";
/** Header naming the session of a run. */
export const SESSION_HEADER = "x-toolsift-session";

/** What an agent id or session key may look like (both are file names in the session store). */
const KEY_RULE = 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 128 characters';

/** Reads an agent id from a header or query parameter (`source` names it in the message); default `main`. */
export function readAgentId(value: string | undefined, source: string): string {
  if (value === undefined || value === "") return MAIN_AGENT_ID;
  if (!isValidSessionKey(value)) throw invalidRequest(source, `${source} must be an agent id: ${KEY_RULE}.`);
  return value;
}

/** Reads a session key from a header or path (`source` names it in the message); undefined when absent. */
export function readSessionKey(value: string | undefined, source: string): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!isValidSessionKey(value))
    throw invalidRequest(source, `${source} must be a session key: ${KEY_RULE}.`);
  return value;
}
