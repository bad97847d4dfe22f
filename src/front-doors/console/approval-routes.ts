import type { ConsoleRouteContext, Refusal } from "./console-request.js";
import { refuse } from "./console-request.js";
import { MAX_CONSOLE_BODY_BYTES } from "./limits.js";

/** `GET /console/api/approvals` and `POST /console/api/approvals/:id`, through the gateway's approval routes. */
export function registerApprovalRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, signedInCaller } = context;
  const approvals = backend.approvals;
  app.get(`${api}/approvals`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    if (approvals === undefined) return c.json({ approvals: [], broker: false });
    return c.json({ ...((await approvals.pending(caller)) as object), broker: true });
  });
  app.post(`${api}/approvals/:id`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    if (approvals === undefined) return refuse(c, noApprovals());
    const body = await backend.readJson(c, MAX_CONSOLE_BODY_BYTES);
    return c.json(await approvals.decide(caller, c.req.param("id"), body));
  });
}

function noApprovals(): Refusal {
  return { status: 404, code: "not_found", message: "this gateway has no approval broker." };
}
