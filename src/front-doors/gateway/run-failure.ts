import type { RunResult } from "../../runtime/runner/index.js";
import { descriptorExhaustion } from "../http-server/index.js";
import { type ApiErrorStatus, GatewayError, serverBusy } from "./gateway-error.js";
import { MAX_ERROR_MESSAGE_CHARS } from "./limits.js";

/**
 * `Retry-After` (seconds) sent with a 503 while the state directory cannot be written (`storage_unavailable`,
 * `/healthz`): a few probe intervals, so a client does not hammer a full disk, yet sees recovery soon.
 */
export const STORAGE_RETRY_AFTER_SECONDS = 10;

/** Run error codes the client caused (a bad tool declaration): answered with a 400. */
const CLIENT_CODES: ReadonlySet<string> = new Set(["INVALID_REQUEST", "NAME_CONFLICT", "INVALID_ARGUMENTS"]);
/** Run error codes of a run that ran out of time: answered with a 504. */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(["RUN_TIMEOUT", "TIMEOUT"]);

/** Lines that look like a stack frame (`    at fn (file:1:2)`): never sent to a client. */
const STACK_FRAME = /^\s*at\s.+$/gmu;

/**
 * The HTTP error for a failed run, by `result.error.code`: the provider failing for good is a 502; the
 * provider refusing its key (401/403, or no key configured) a 424 `provider_auth_failed` with
 * `x-should-retry: false` (the official `openai` and `@anthropic-ai/sdk` clients retry 408, 409, 429 and
 * every 5xx, so a 502 would be sent three times and fail three times; a 424 is not retried, and says the
 * gateway's dependency failed, not the client's request); a timeout a 504, a cancelled run (gateway
 * stopping) a 503, a session log that cannot be written a 503 `storage_unavailable` with `Retry-After` (the
 * run was refused before anything ran), a client-caused refusal a 400, a run that failed because the process
 * ran out of file descriptors a 503 `server_busy` (with `Retry-After`), anything else a 500. The runner's
 * message is written for the reader (it names the provider and `models.providers.<id>.apiKey`), so it is
 * passed on, without any stack lines.
 */
export function runFailureError(result: RunResult): GatewayError {
  const code = result.error?.code ?? "INTERNAL";
  if (code !== "INVALID_REQUEST" && descriptorExhaustion(result.error?.message) !== undefined)
    return serverBusy();
  const message = clean(result.error?.message) ?? "The run failed; see the gateway log.";
  const apiCode = code.toLowerCase();
  if (CLIENT_CODES.has(code)) return new GatewayError(400, message, { code: apiCode });
  if (code === "PROVIDER_AUTH_FAILED")
    return new GatewayError(424, message, {
      type: "server_error",
      code: apiCode,
      headers: { "x-should-retry": "false" },
    });
  if (code === "STORAGE_UNAVAILABLE") return storageUnavailableError(message);
  return new GatewayError(failureStatus(code), message, { code: apiCode });
}

/**
 * 503 `storage_unavailable` with `Retry-After`: the state (the state directory, or the state database) cannot
 * be written or read, so the request was refused before anything ran.
 */
export function storageUnavailableError(message: string): GatewayError {
  return new GatewayError(503, clean(message) ?? "The gateway's state store is unavailable; retry later.", {
    code: "storage_unavailable",
    headers: { "Retry-After": String(STORAGE_RETRY_AFTER_SECONDS) },
  });
}

function failureStatus(code: string): ApiErrorStatus {
  if (code === "PROVIDER_FAILED") return 502;
  if (TIMEOUT_CODES.has(code)) return 504;
  if (code === "CANCELLED") return 503;
  return 500;
}

function clean(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const text = message
    .replace(STACK_FRAME, "")
    .replace(/\n{2,}/gu, "\n")
    .trim();
  if (text.length === 0) return undefined;
  return text.length > MAX_ERROR_MESSAGE_CHARS ? `${text.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : text;
}
