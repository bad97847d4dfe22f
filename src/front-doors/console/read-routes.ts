import type { ConsoleRouteContext } from "./console-request.js";
import { refuse } from "./console-request.js";
import { MAX_FILTER_CHARS } from "./limits.js";

/**
 * The pages' reads: `GET /console/api/sessions`, `/session-events`, `/health` and `/tools`, each through the
 * gateway's own route functions (the backend) for the signed-in key.
 */
export function registerReadRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, signedInCaller } = context;

  app.get(`${api}/sessions`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const agent = c.req.query("agent");
    const text = c.req.query("text")?.slice(0, MAX_FILTER_CHARS);
    const after = c.req.query("after");
    const key = c.req.query("key");
    const status = c.req.query("status");
    const contains = c.req.query("contains")?.slice(0, MAX_FILTER_CHARS);
    return c.json(
      await backend.listSessions(caller, {
        ...(agent === undefined || agent === "" ? {} : { agent }),
        ...(text === undefined || text === "" ? {} : { text }),
        ...(after === undefined || after === "" ? {} : { after }),
        ...(key === undefined || key === "" ? {} : { key }),
        ...(status === undefined || status === "" ? {} : { status }),
        ...(contains === undefined || contains === "" ? {} : { contains }),
      }),
    );
  });

  app.get(`${api}/session-events`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const agent = c.req.query("agent") ?? "";
    const key = c.req.query("key") ?? "";
    return c.json(await backend.readSession(caller, agent, key));
  });

  app.get(`${api}/health`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    return c.json(await backend.health(caller));
  });

  app.get(`${api}/tools`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    return c.json(await backend.tools(caller, c.req.query("agent") ?? ""));
  });
}
