import type { Context, Hono, MiddlewareHandler } from "hono";
import {
  type Caller,
  callerHasScope,
  callerMayUseAgent,
  INVALID_TOKEN_MESSAGE,
  type Scope,
} from "../../runtime/http-guard/index.js";
import { GatewayError } from "./gateway-error.js";

/** What a route needs of its caller: a scope, or only a valid key (`any`). */
export type RouteAccess = Scope | "any";

/**
 * The scope every guarded route needs (`admin` holds them all; `/healthz` is open). Runs also need an agent
 * the key may use, checked where the agent is known (`resolve-run-target.ts`, `/v1/tools/effective`). A
 * count of a run's tokens is a run route. `/v1/models` answers any valid key, listing the agents it may run.
 * The run routes of each dialect (`/v1/responses`, `/v1/chat/completions`, `/v1/messages` and its
 * `count_tokens`) need `runs`, checked in their dialect's app (`requireAccess`) so refusals are in its shape.
 */
export const ROUTE_ACCESS: ReadonlyArray<
  readonly [method: "GET" | "POST", path: string, access: RouteAccess]
> = [
  ["POST", "/v1/responses/input_tokens", "runs"],
  ["GET", "/v1/tools/effective", "runs"],
  ["GET", "/v1/models", "any"],
  ["GET", "/v1/models/:model{.+}", "any"],
  ["GET", "/v1/responses/:id", "sessions:read"],
  ["GET", "/v1/sessions", "sessions:read"],
  ["GET", "/v1/sessions/:key", "sessions:read"],
  ["GET", "/v1/approvals", "approvals"],
  ["POST", "/v1/approvals/:id", "approvals"],
];

/** Registers the scope check of every route in `ROUTE_ACCESS` (approval paths only when `approvals`). */
export function registerRouteAccess(app: Hono, options: { approvals: boolean }): void {
  for (const [method, path, access] of ROUTE_ACCESS) {
    if (!options.approvals && path.startsWith("/v1/approvals")) continue;
    app.on(method, path, requireAccess(access));
  }
}

/** Middleware: 403 `insufficient_scope` unless the request's caller holds `access`. */
export function requireAccess(access: RouteAccess): MiddlewareHandler {
  return async (c, next) => {
    if (access === "any") callerOf(c);
    else requireScope(c, access);
    await next();
  };
}

/** The caller the guard identified (a request the guard did not identify is refused, never served open). */
export function callerOf(c: Context): Caller {
  const caller = c.get("caller");
  if (caller === undefined) {
    c.header("WWW-Authenticate", "Bearer");
    throw new GatewayError(401, INVALID_TOKEN_MESSAGE, { code: "invalid_api_key" });
  }
  return caller;
}

/** The caller, or a 403 `insufficient_scope` naming the scope its key lacks. */
export function requireScope(c: Context, scope: Scope): Caller {
  const caller = callerOf(c);
  if (callerHasScope(caller, scope)) return caller;
  throw new GatewayError(
    403,
    `key "${caller.keyId}" lacks the scope "${scope}" that ${c.req.method} ${c.req.path.slice(0, 100)} needs: ` +
      `add "${scope}" to its scopes in gateway.auth.keys, or use a key that has it.`,
    { code: "insufficient_scope" },
  );
}

/** A 403 `agent_not_allowed` unless the caller's key may run `agentId` (`gateway.auth.keys[].agents`). */
export function requireAgentAllowed(caller: Caller, agentId: string, param: string): void {
  if (callerMayUseAgent(caller, agentId)) return;
  throw new GatewayError(
    403,
    `key "${caller.keyId}" may not use agent "${agentId}": its agents are ${(caller.agents ?? []).join(", ") || "none"} ` +
      "(gateway.auth.keys[].agents).",
    { code: "agent_not_allowed", param },
  );
}
