import { createRepeatLimitedLog, descriptorExhaustion } from "../http-server/index.js";
import { GatewayError, serverBusy } from "./gateway-error.js";

/** Turns an unexpected error into the answer a client gets, logging its detail. */
export type InternalErrorReporter = (where: string, error: unknown) => GatewayError;

/**
 * The gateway's one place for unexpected errors: the client gets a 500 `internal_error` without detail, or,
 * when the process ran out of file descriptors (EMFILE, ENFILE), a 503 `server_busy` (answered with
 * `Retry-After`). The log gets each cause once (the first time with its stack, as one line), then a count
 * at most once a minute, never a line per request (`createRepeatLimitedLog`).
 */
export function createInternalErrorReporter(log: (line: string) => void): InternalErrorReporter {
  const limited = createRepeatLimitedLog(log);
  return (where, error) => {
    const exhausted = descriptorExhaustion(error);
    if (exhausted !== undefined) {
      limited(
        exhausted,
        `gateway out of file descriptors (${exhausted}): requests are answered 503 until descriptors free up; ` +
          "raise the limit (ulimit -n) or lower gateway connections",
      );
      return serverBusy();
    }
    const cause = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    const detail = error instanceof Error ? (error.stack ?? cause) : cause;
    limited(cause, `internal error ${where}: ${detail}`);
    return new GatewayError(500, "the gateway hit an internal error; the detail is in the gateway log.", {
      code: "internal_error",
    });
  };
}
