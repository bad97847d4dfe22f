import type { Hono } from "hono";
import type { GatewayContext } from "./gateway-context.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { requireKnownAgent } from "./resolve-run-target.js";
import { readAgentId, readSessionKey } from "./run-target.js";

/**
 * Registers the read-only routes: `/healthz` (200 `{ ok: true }`; 503 `{ ok: false, reason }` naming the
 * state directory and the error while it cannot be written, 503 `{ ok: false, draining: true }` while
 * draining), `/v1/tools/effective`, `/v1/sessions`, `/v1/sessions/:key`.
 */
export function registerReadRoutes(app: Hono, gateway: GatewayContext): void {
  // 503 while draining, or while the state directory cannot be written (the store's probe, cached briefly).
  app.get("/healthz", async (c) => {
    if (!gateway.tracker.accepting) return c.json({ ok: false, draining: true }, 503);
    const storage = await gateway.sessions.probeWritable?.();
    if (storage !== undefined && !storage.writable) return c.json({ ok: false, reason: storage.reason }, 503);
    return c.json({ ok: true });
  });

  app.get("/v1/tools/effective", async (c) => {
    const agentId = readAgentId(c.req.query("agent"), "agent");
    requireKnownAgent(gateway, agentId, "agent");
    return c.json(await gateway.runner.effectiveSurface(agentId));
  });

  app.get("/v1/sessions", async (c) => {
    const agent = c.req.query("agent");
    const agentId = agent === undefined ? undefined : readAgentId(agent, "agent");
    const sessions = await gateway.sessions.list();
    const data = agentId === undefined ? sessions : sessions.filter((session) => session.agentId === agentId);
    return c.json({ object: "list", data });
  });

  app.get("/v1/sessions/:key", async (c) => {
    const sessionKey = readSessionKey(c.req.param("key"), "key");
    if (sessionKey === undefined) throw invalidRequest("key", "the session key is missing.");
    const agentId = readAgentId(c.req.query("agent"), "agent");
    const events = await gateway.sessions.read(agentId, sessionKey);
    if (events.length === 0) {
      throw notFound(
        `agent "${agentId}" has no session "${sessionKey}": GET /v1/sessions lists the sessions.`,
        "key",
      );
    }
    return c.json({ agentId, sessionKey, events });
  });
}
