import { createRequestFailureLog } from "../http-server/index.js";
import { GatewayError, serverBusy } from "./gateway-error.js";

/** Turns an unexpected error into the answer a client gets, logging its detail. */
export type InternalErrorReporter = (where: string, error: unknown) => GatewayError;

/**
 * The gateway's one place for unexpected errors (`createRequestFailureLog`, shared with `mcp serve`): the
 * client gets a 500 `internal_error` without detail, or, when the process ran out of file descriptors
 * (EMFILE, ENFILE), a 503 `server_busy` (answered with `Retry-After`). Each cause is logged once, then counted.
 */
export function createInternalErrorReporter(log: (line: string) => void): InternalErrorReporter {
  const failures = createRequestFailureLog({ name: "gateway", log });
  return (where, error) =>
    failures(where, error) === "busy"
      ? serverBusy()
      : new GatewayError(500, "the gateway hit an internal error; the detail is in the gateway log.", {
          code: "internal_error",
        });
}
