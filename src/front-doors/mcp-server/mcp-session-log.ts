import { randomBytes, randomUUID } from "node:crypto";
import type { ApprovalRecord } from "../../runtime/approvals/index.js";
import { MCP_SERVE_PROFILE_ID } from "../../runtime/environment/index.js";
import { approvalEvent, MAX_LOGGED_OUTPUT_CHARS } from "../../runtime/run-surface/index.js";
import {
  isoNow,
  isStorageUnavailable,
  openSessionLog,
  type RunLog,
} from "../../runtime/session-log/index.js";
import { type SessionEvent, type SessionStore, STORAGE_FIX } from "../../runtime/sessions/index.js";
import { messageOf } from "../../shared/errors/index.js";
import { cutText } from "../../shared/text/index.js";

type ToolResultEvent = Omit<Extract<SessionEvent, { type: "tool-result" }>, "type" | "at" | "runId">;
type TargetActivityEvent = Omit<Extract<SessionEvent, { type: "target-activity" }>, "type" | "at" | "runId">;
type RunSummaryEvent = Omit<
  Extract<SessionEvent, { type: "run-summary" }>,
  "type" | "at" | "runId" | "turns"
>;

/** The log of one `tools/call`: one run of agent `mcp`, ending with its `run-summary`. */
export interface McpCallLog {
  readonly runId: string;
  /** Learns the secret-named values in `value` (the call's arguments, its output): redacted in later lines. */
  learnSecrets(value: unknown): void;
  /** Queued, not awaited: the summary settles it (a store writes a session's appends in order). */
  toolResult(event: ToolResultEvent): void;
  /** Display-only evidence of the target behind a `tool_call`; queued like `toolResult`. */
  targetActivity(event: TargetActivityEvent): void;
  /** How a call that waited for approval was settled (the runner's `approval` line); queued like `toolResult`. */
  approval(record: ApprovalRecord & { callId?: string }): void;
  /** The call's `run-summary` (flushed to the disk by the store); resolves once written, never rejects. */
  summary(event: RunSummaryEvent): Promise<void>;
}

/** The session log of one MCP connection (agent `mcp`). Writes never throw: failures go to `log`. */
export interface McpSessionLog {
  readonly sessionKey: string;
  /**
   * Before a call runs: writes the session header (first call) or probes the state directory (later
   * calls). Undefined when the call may run; otherwise the refusal text for the client (why, and the fix).
   */
  admit(): Promise<string | undefined>;
  /** Starts the log of one call under a run id of its own. */
  startCall(): McpCallLog;
}

/** Options of createMcpSessionLog. */
export type McpSessionLogOptions = {
  sessions: SessionStore;
  /** Past this many bytes written, calls are logged without their bodies (NOT_LOGGED text instead). */
  maxBytes: number;
  /** The client key that opened the connection, recorded on the session header. Default: none. */
  keyId?: string;
  /** Secrets known up front (the config's): redacted wherever they appear as text in the log. Default: none. */
  secrets?: Iterable<string>;
  log(line: string): void;
};

/** A new session key for an MCP connection: `mcp-<UTC time>-<random>`, valid as a session file name. */
export function newMcpSessionKey(now = new Date()): string {
  const time = now
    .toISOString()
    .replace(/[-:]/gu, "")
    .replace(/\.\d+Z$/u, "Z");
  return `mcp-${time}-${randomBytes(4).toString("hex")}`;
}

/**
 * Logs one MCP connection as one session through the session log every front door writes (its header, its
 * redaction): the `session` header when the first call is admitted (a client that only lists tools leaves
 * no file), then per call its `tool-result`, `target-activity`, `approval` and `run-summary` under the call's own run
 * id. A call is admitted only when the log can be written (the gateway's storage rule); storage faults are
 * reported once by the store, not here. Arguments are cut to MAX_LOGGED_OUTPUT_CHARS of JSON like outputs;
 * once the file passes `maxBytes`, bodies are replaced by a marker, so a busy connection adds only a few
 * hundred bytes of metadata per call.
 */
export function createMcpSessionLog(options: McpSessionLogOptions): McpSessionLog {
  const { sessions, log, keyId } = options;
  const sessionKey = newMcpSessionKey();
  const sessionLog = openSessionLog({
    sessions,
    // The session logs `mcp serve` writes belong to the profile it runs under.
    agentId: MCP_SERVE_PROFILE_ID,
    sessionKey,
    ...(keyId === undefined ? {} : { keyId }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    log,
  });
  const failureNote = `mcp serve: could not write session ${sessionKey}`;
  const notLogged = "[not logged: session log over mcp.serve.maxSessionLogBytes]";
  let header: Promise<void> | undefined;
  let headerWritten = false;
  let bytes = 0;
  let overWarned = false;

  const append = (run: RunLog, event: SessionEvent): Promise<void> => {
    bytes += lineBytes(event);
    return run.append(event).catch((error: unknown) => {
      if (!isStorageUnavailable(error)) run.note(`${failureNote}: ${messageOf(error)}`);
    });
  };
  const bodiesLogged = () => {
    if (bytes < options.maxBytes) return true;
    if (!overWarned) {
      overWarned = true;
      log(
        `mcp serve: session ${sessionKey} passed ${options.maxBytes} bytes (mcp.serve.maxSessionLogBytes): its later calls are logged without arguments or outputs`,
      );
    }
    return false;
  };

  return {
    sessionKey,
    async admit() {
      try {
        if (headerWritten) {
          const status = await sessions.probeWritable?.();
          if (status === undefined || status.writable) return undefined;
          return `Refused before the tool ran: the session log cannot be written: ${status.reason}. ${STORAGE_FIX}`;
        }
        const event = sessionLog.header();
        header ??= sessionLog.appendHeader(event.at);
        await header;
        if (!headerWritten) bytes += lineBytes(event);
        headerWritten = true;
        return undefined;
      } catch (error) {
        header = undefined;
        if (isStorageUnavailable(error)) return `Refused before the tool ran: ${messageOf(error)}`;
        log(`${failureNote}: ${messageOf(error)}`);
        return "Refused before the tool ran: the session log cannot be written (see the mcp serve log). Retry the call later.";
      }
    },
    startCall() {
      const run = sessionLog.startRun(`mcp_${randomUUID()}`);
      const stamp = () => ({ at: isoNow(), runId: run.runId });
      return {
        runId: run.runId,
        learnSecrets: (value) => run.learnSecrets(value),
        toolResult(event) {
          const output = bodiesLogged() ? event.output : notLogged;
          void append(run, { ...stamp(), type: "tool-result", ...event, output });
        },
        targetActivity(event) {
          const bodies = bodiesLogged();
          void append(run, {
            ...stamp(),
            type: "target-activity",
            ...event,
            arguments: bodies ? boundedArguments(event.arguments) : notLogged,
            result: bodies ? event.result : notLogged,
          });
        },
        approval: (record) => void append(run, { ...stamp(), ...approvalEvent(record) }),
        summary: (event) => append(run, { ...stamp(), type: "run-summary", turns: 0, ...event }),
      };
    },
  };
}

/** Call arguments as logged: as they are, or their JSON cut to MAX_LOGGED_OUTPUT_CHARS when longer. */
function boundedArguments(args: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(args);
  } catch {
    return "[arguments not serialisable]";
  }
  return json !== undefined && json.length > MAX_LOGGED_OUTPUT_CHARS
    ? cutText(json, MAX_LOGGED_OUTPUT_CHARS)
    : args;
}

/** About the bytes the event's line takes (before redaction, which rarely changes its length much). */
function lineBytes(event: SessionEvent): number {
  try {
    return Buffer.byteLength(JSON.stringify(event)) + 1;
  } catch {
    return 0;
  }
}
