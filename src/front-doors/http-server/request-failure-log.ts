import { descriptorExhaustion } from "./descriptor-exhaustion.js";
import { createRepeatLimitedLog } from "./repeat-limited-log.js";

/** What a client is answered for an unexpected error: 503 with `Retry-After` (`busy`), or a bare 500. */
export type RequestFailure = "busy" | "internal";

/** Logs one unexpected request error and says how to answer it; `close` stops its periodic counts. */
export type RequestFailureLog = {
  (where: string, error: unknown): RequestFailure;
  close(): void;
};

/**
 * The one handling of unexpected request errors of every front door (the gateway, `mcp serve --http`): an
 * error that says the process ran out of file descriptors (EMFILE, ENFILE; `descriptorExhaustion`) is the
 * server being full, answered 503 with `Retry-After` (`busy`); anything else is a 500 without detail
 * (`internal`). The log gets each cause once (an error's stack escaped onto one line), then a count at most
 * once a minute (`createRepeatLimitedLog`), never a line per request.
 */
export function createRequestFailureLog(options: {
  /** Names the server in the descriptor line: `gateway`, `mcp serve`. */
  name: string;
  log: (line: string) => void;
}): RequestFailureLog {
  const limited = createRepeatLimitedLog(options.log);
  const report = (where: string, error: unknown): RequestFailure => {
    const exhausted = descriptorExhaustion(error);
    if (exhausted !== undefined) {
      limited(
        exhausted,
        `${options.name} out of file descriptors (${exhausted}): requests are answered 503 until descriptors ` +
          `free up; raise the limit (ulimit -n) or lower ${options.name} connections`,
      );
      return "busy";
    }
    const cause = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    const detail = error instanceof Error ? (error.stack ?? cause) : cause;
    limited(cause, `internal error ${where}: ${detail}`);
    return "internal";
  };
  return Object.assign(report, { close: () => limited.close() });
}
