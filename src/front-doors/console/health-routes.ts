import type { ConsoleRouteContext } from "./console-request.js";
import { refuse } from "./console-request.js";

/**
 * `GET /console/api/health/checks`: the Health page beyond `/healthz` (each MCP server, and the doctor's
 * checks that apply to a running gateway), for any signed-in key; the backend leaves reasons to an admin.
 */
export function registerHealthRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, signedInCaller } = context;
  app.get(`${api}/health/checks`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    return c.json(await backend.healthChecks(caller));
  });
}
