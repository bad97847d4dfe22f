import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createHttpGuard, type HttpGuardOptions } from "./create-http-guard.js";

const TOKEN = "tsk-guard-test-token";
const LISTED = "http://localhost:5173";

/** A tiny app behind the guard that counts the requests its routes ran. */
function guardedApp(overrides: Partial<HttpGuardOptions> = {}, token: string | null = TOKEN) {
  const ran: string[] = [];
  const logs: string[] = [];
  const app = new Hono();
  app.use(
    createHttpGuard({
      hosts: { bindHost: "127.0.0.1" },
      allowOrigins: [LISTED],
      cors: {
        allowMethods: ["GET", "POST", "OPTIONS"],
        allowHeaders: ["authorization", "content-type", "x-toolsift-session"],
        exposeHeaders: ["x-toolsift-session"],
      },
      ...(token === null ? {} : { bearerToken: token }),
      openPaths: ["/healthz"],
      render: (refusal) => ({ refused: refusal.code, message: refusal.message }),
      log: (line) => logs.push(line),
      ...overrides,
    }),
  );
  app.post("/run", (c) => {
    ran.push("run");
    return c.json({ ok: true });
  });
  app.get("/healthz", (c) => {
    ran.push("healthz");
    return c.json({ ok: true });
  });
  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    app.request(`http://127.0.0.1${path}`, {
      method,
      headers: { host: "127.0.0.1:18789", ...headers },
      ...(method === "POST" ? { body: '{"input":"x"}' } : {}),
    });
  return { ran, logs, send };
}

const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_TYPE = { "content-type": "application/json" };

describe("createHttpGuard: the order of the checks and what each refusal runs", () => {
  it.each([
    ["all good", "POST", "/run", { ...AUTH, ...JSON_TYPE }, 200, undefined],
    [
      "bad Host beats everything",
      "POST",
      "/run",
      { host: "evil.example", origin: "https://evil.example" },
      403,
      "forbidden_host",
    ],
    ["bad Host on /healthz", "GET", "/healthz", { host: "evil.example:18789" }, 403, "forbidden_host"],
    [
      "bad Origin beats a missing token",
      "POST",
      "/run",
      { origin: "https://evil.example" },
      403,
      "forbidden_origin",
    ],
    [
      "bad Origin on /healthz",
      "GET",
      "/healthz",
      { origin: "https://evil.example" },
      403,
      "forbidden_origin",
    ],
    ["Origin null", "POST", "/run", { ...AUTH, ...JSON_TYPE, origin: "null" }, 403, "forbidden_origin"],
    [
      "missing token beats a bad content type",
      "POST",
      "/run",
      { "content-type": "text/plain" },
      401,
      "invalid_api_key",
    ],
    [
      "text/plain with the token",
      "POST",
      "/run",
      { ...AUTH, "content-type": "text/plain" },
      415,
      "unsupported_media_type",
    ],
    ["no content type with the token", "POST", "/run", AUTH, 415, "unsupported_media_type"],
    [
      "listed origin with everything right",
      "POST",
      "/run",
      { ...AUTH, ...JSON_TYPE, origin: LISTED },
      200,
      undefined,
    ],
    [
      "listed origin, form post",
      "POST",
      "/run",
      { ...AUTH, origin: LISTED, "content-type": "application/x-www-form-urlencoded" },
      415,
      "unsupported_media_type",
    ],
    ["healthz is open without a token", "GET", "/healthz", {}, 200, undefined],
  ] as const)("%s → %i", async (_name, method, path, headers, status, code) => {
    const { ran, send } = guardedApp();
    const response = await send(method, path, headers);
    expect(response.status).toBe(status);
    if (code === undefined) {
      expect(ran).toHaveLength(1);
      return;
    }
    expect(await response.json()).toMatchObject({ refused: code });
    expect(ran).toEqual([]);
  });

  it("listed origins get CORS headers, on answers and on refusals", async () => {
    const { send } = guardedApp();
    for (const headers of [{ ...AUTH, ...JSON_TYPE }, {}]) {
      const response = await send("POST", "/run", { ...headers, origin: "HTTP://LOCALHOST:5173" });
      expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
      expect(response.headers.get("vary")).toContain("Origin");
      expect(response.headers.get("access-control-expose-headers")).toBe("x-toolsift-session");
    }
  });

  it("requests without an Origin get no CORS headers", async () => {
    const response = await guardedApp().send("POST", "/run", { ...AUTH, ...JSON_TYPE });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers a preflight from a listed origin with 204, before auth, and runs nothing", async () => {
    const { ran, send } = guardedApp();
    const response = await send("OPTIONS", "/run", {
      origin: LISTED,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type, x-toolsift-session",
    );
    expect(response.headers.get("access-control-max-age")).toBe("600");
    expect(ran).toEqual([]);
  });

  it("refuses a preflight from an unlisted origin, and one naming another Host", async () => {
    const { send } = guardedApp();
    const preflight = { "access-control-request-method": "POST" };
    const unlisted = await send("OPTIONS", "/run", { ...preflight, origin: "http://localhost:5174" });
    expect(unlisted.status).toBe(403);
    expect(unlisted.headers.get("access-control-allow-origin")).toBeNull();
    const rebound = await send("OPTIONS", "/run", { ...preflight, origin: LISTED, host: "evil.example" });
    expect(rebound.status).toBe(403);
  });

  it("logs Host, Origin and content-type refusals with their reason, never the token", async () => {
    const { logs, send } = guardedApp();
    await send("POST", "/run", { host: "evil.example" });
    await send("POST", "/run", { origin: "https://evil.example" });
    await send("POST", "/run", { ...AUTH, "content-type": "text/plain" });
    await send("POST", "/run", { authorization: "Bearer wrong" });
    expect(logs).toEqual([
      expect.stringMatching(/^refused POST \/run: 403 forbidden_host: Host "evil.example" is refused/u),
      expect.stringMatching(/^refused POST \/run: 403 forbidden_origin: Origin "https:\/\/evil.example"/u),
      expect.stringMatching(
        /^refused POST \/run: 415 unsupported_media_type: .*got Content-Type "text\/plain"/u,
      ),
    ]);
    expect(logs.join("\n")).not.toContain(TOKEN);
  });

  it("without a token every path is open, but Host, Origin and content type are still checked", async () => {
    const { send } = guardedApp({}, null);
    expect((await send("POST", "/run", JSON_TYPE)).status).toBe(200);
    expect((await send("POST", "/run", { "content-type": "text/plain" })).status).toBe(415);
    expect((await send("POST", "/run", { ...JSON_TYPE, host: "evil.example" })).status).toBe(403);
  });

  it("takes the token as x-api-key too, and renders each refusal for its path", async () => {
    const { ran, send } = guardedApp({
      render: (refusal, path) => ({ refused: refusal.code, path }),
    });
    expect((await send("POST", "/run", { "x-api-key": TOKEN, ...JSON_TYPE })).status).toBe(200);
    expect(ran).toEqual(["run"]);
    const wrong = await send("POST", "/run", { "x-api-key": "wrong", ...JSON_TYPE });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ refused: "invalid_api_key", path: "/run" });
    const mixed = await send("POST", "/run", { ...AUTH, "x-api-key": "wrong", ...JSON_TYPE });
    expect(mixed.status).toBe(401);
    expect(ran).toEqual(["run"]);
  });

  it("checks the content type only where requiresJsonBody says a body is read", async () => {
    const { send } = guardedApp({
      requiresJsonBody: (method, path) => method === "POST" && path === "/other",
    });
    expect((await send("POST", "/run", AUTH)).status).toBe(200);
  });

  it("own pages: no key asked, only the server's own origin passes (listed CORS origins are refused, no CORS)", async () => {
    const { ran, send } = guardedApp({ ownPages: (path) => path === "/run" });
    expect((await send("POST", "/run", JSON_TYPE)).status).toBe(200);
    for (const origin of ["http://127.0.0.1:18789", "https://127.0.0.1:18789", "HTTP://127.0.0.1:18789"]) {
      expect((await send("POST", "/run", { ...JSON_TYPE, origin })).status).toBe(200);
    }
    expect(ran).toHaveLength(4);
    for (const origin of [LISTED, "http://127.0.0.1:18790", "null", "https://evil.example"]) {
      const refused = await send("POST", "/run", { ...JSON_TYPE, origin });
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      expect(await refused.json()).toMatchObject({ refused: "forbidden_origin" });
    }
    const preflight = await send("OPTIONS", "/run", {
      origin: LISTED,
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(403);
    expect((await send("POST", "/run", { "content-type": "text/plain" })).status).toBe(415);
    expect((await send("POST", "/run", { ...JSON_TYPE, host: "evil.example" })).status).toBe(403);
    expect(ran).toHaveLength(4);
    // Other paths keep their key check.
    expect((await send("GET", "/healthz")).status).toBe(200);
    expect((await send("POST", "/other", JSON_TYPE)).status).toBe(401);
  });
});
