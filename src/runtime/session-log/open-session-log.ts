import { isToolsiftError, messageOf } from "../../shared/errors/index.js";
import {
  collectSecretValues,
  redactKnownValues,
  redactSecrets,
  redactSessionEvent,
  redactText,
  type SessionEvent,
  type SessionStore,
} from "../sessions/index.js";
import { isoNow } from "./iso-now.js";

/** A session event as a run hands it over: its time and run id are stamped on append (a given `at` is kept). */
export type RunLogEvent = SessionEvent extends infer Event
  ? Event extends SessionEvent
    ? Omit<Event, "at" | "runId"> & { at?: string }
    : never
  : never;

/** Options of openSessionLog. */
export type SessionLogOptions = {
  sessions: SessionStore;
  agentId: string;
  sessionKey: string;
  /** The client key that opened the session, recorded on its header. Default: none. */
  keyId?: string;
  /**
   * Secrets known before anything is logged (a provider key, the config's secrets): redacted wherever they
   * appear as text in the log. Default: none.
   */
  secrets?: Iterable<string>;
  /** Where each run's notes go (a write that failed, a run's failure), redacted like the log. Default: none. */
  log?: (line: string) => void;
};

/** The log of one session, as every front door writes it: one header, then the lines of its runs. */
export interface SessionLog {
  readonly agentId: string;
  readonly sessionKey: string;
  /** The session's events so far (see SessionStore.read). */
  read(): Promise<SessionEvent[]>;
  /** The session's `session` header line, stamped `at` (default: now). */
  header(at?: string): SessionEvent;
  /** Appends the session's header (see `header`); rejects as SessionStore.append does. */
  appendHeader(at?: string): Promise<void>;
  /** Starts the log of one run: its lines carry `runId`, redacted with the secrets this run has seen. */
  startRun(runId: string): RunLog;
}

/**
 * The log of one run. Every line is redacted here, in one place: the known secrets (the session's and those
 * the run learns from call arguments and tool outputs) wherever they appear as text, then, in the store,
 * secrets by key and shape.
 */
export interface RunLog {
  readonly runId: string;
  /** Learns the values of secret-named keys in `value` (call arguments, a tool's output), for later lines. */
  learnSecrets(value: unknown): void;
  /** `value` with every known secret replaced by `[REDACTED]` (a failure message quoting a key). */
  redactKnown<T>(value: T): T;
  /** `event` as the log holds it: known secrets, then secrets by key and shape, redacted. */
  asLogged<T extends SessionEvent>(event: T): T;
  /** Tells `line` to the session log's `log`, with known secrets and secret shapes redacted. */
  note(line: string): void;
  /**
   * Appends one line (stamped with the time and the run id, redacted); rejects as SessionStore.append does
   * (STORAGE_UNAVAILABLE when the state directory cannot be written). A rejection nobody waits for is never
   * unhandled: a store writes one session's appends in order, so a later awaited line settles it.
   */
  append(event: RunLogEvent): Promise<void>;
  /**
   * Appends one line without waiting for it. A failed write is noted as `<failureNote>: <message>` when a
   * note is given, unless it is STORAGE_UNAVAILABLE (the store reports that once itself); never rejects.
   */
  queue(event: RunLogEvent, failureNote?: string): void;
}

/** True for the store's refusal to write because the state directory cannot be written. */
export function isStorageUnavailable(error: unknown): error is Error {
  return isToolsiftError(error) && error.code === "STORAGE_UNAVAILABLE";
}

/** Opens the log of one session (nothing is read or written until asked). */
export function openSessionLog(options: SessionLogOptions): SessionLog {
  const { sessions, agentId, sessionKey, keyId } = options;
  const known = [...(options.secrets ?? [])];
  const write = (event: SessionEvent, secrets: Set<string>): Promise<void> => {
    const written = sessions.append(agentId, sessionKey, redactSessionEvent(event, secrets));
    written.catch(() => {});
    return written;
  };
  const header = (at = isoNow()): SessionEvent => ({
    type: "session",
    version: 1,
    agentId,
    sessionKey,
    ...(keyId === undefined ? {} : { keyId }),
    at,
  });
  return {
    agentId,
    sessionKey,
    read: () => sessions.read(agentId, sessionKey),
    header,
    appendHeader: (at) => write(header(at), new Set(known)),
    startRun(runId) {
      // One Set per run, grown as the run learns: the store's redaction keeps its forms while it is unchanged.
      const secrets = new Set(known);
      const note = (line: string) => options.log?.(redactText(redactKnownValues(line, secrets)));
      const append = (event: RunLogEvent) =>
        write({ at: isoNow(), runId, ...event } as SessionEvent, secrets);
      return {
        runId,
        learnSecrets(value) {
          for (const secret of collectSecretValues(value)) secrets.add(secret);
        },
        redactKnown: (value) => redactKnownValues(value, secrets),
        asLogged: (event) => redactSecrets(redactKnownValues(event, secrets)) as typeof event,
        note,
        append,
        queue(event, failureNote) {
          append(event).catch((error: unknown) => {
            if (failureNote !== undefined && !isStorageUnavailable(error))
              note(`${failureNote}: ${messageOf(error)}`);
          });
        },
      };
    },
  };
}
