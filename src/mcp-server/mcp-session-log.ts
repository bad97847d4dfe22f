import { randomBytes, randomUUID } from "node:crypto";
import { messageOf } from "../errors/index.js";
import type { SessionEvent, SessionStore } from "../sessions/index.js";
import { MCP_AGENT_ID } from "./limits.js";

type ToolResultEvent = Omit<Extract<SessionEvent, { type: "tool-result" }>, "type" | "at" | "runId">;
type TargetActivityEvent = Omit<Extract<SessionEvent, { type: "target-activity" }>, "type" | "at" | "runId">;

/** The session log of one MCP connection (agent `mcp`). Writes never throw: failures go to `log`. */
export interface McpSessionLog {
  readonly sessionKey: string;
  toolResult(event: ToolResultEvent): Promise<void>;
  targetActivity(event: TargetActivityEvent): Promise<void>;
}

/** A new session key for an MCP connection: `mcp-<UTC time>-<random>`, valid as a session file name. */
export function newMcpSessionKey(now = new Date()): string {
  const time = now
    .toISOString()
    .replace(/[-:]/gu, "")
    .replace(/\.\d+Z$/u, "Z");
  return `mcp-${time}-${randomBytes(4).toString("hex")}`;
}

/**
 * Logs one MCP connection as one session: the `session` header before the first event (a client that only
 * lists tools leaves no file), then `tool-result` and `target-activity` events, all under one run id.
 */
export function createMcpSessionLog(
  sessions: SessionStore,
  log: (line: string) => void,
  keyId?: string,
): McpSessionLog {
  const sessionKey = newMcpSessionKey();
  const runId = `mcp_${randomUUID()}`;
  let header: Promise<void> | undefined;
  const append = async (event: SessionEvent): Promise<void> => {
    try {
      header ??= sessions.append(MCP_AGENT_ID, sessionKey, {
        type: "session",
        version: 1,
        agentId: MCP_AGENT_ID,
        sessionKey,
        ...(keyId === undefined ? {} : { keyId }),
        at: event.at,
      });
      await header;
      await sessions.append(MCP_AGENT_ID, sessionKey, event);
    } catch (error) {
      log(`mcp serve: could not write session ${sessionKey}: ${messageOf(error)}`);
    }
  };
  const stamp = () => ({ at: new Date().toISOString(), runId });
  return {
    sessionKey,
    toolResult: (event) => append({ ...stamp(), type: "tool-result", ...event }),
    targetActivity: (event) => append({ ...stamp(), type: "target-activity", ...event }),
  };
}
