import { describe, expect, it } from "vitest";
import { checkGatewayAuth } from "./check-gateway-auth.js";

describe("checkGatewayAuth: who may decide approvals", () => {
  it.each<[string, unknown, "ok" | "warn", string]>([
    ["no config: exec waits for approval, no keys", {}, "warn", "calls to exec wait for approval"],
    [
      "a require list, no keys",
      { tools: { approval: { require: ["write", "exec"] } } },
      "warn",
      "calls to write, exec wait for approval",
    ],
    ["an empty require list", { tools: { approval: { require: [] } } }, "ok", "no gateway keys"],
    ["mode allow (no operator)", { tools: { approval: { mode: "allow" } } }, "ok", "no gateway keys"],
    ["mode deny (no operator)", { tools: { approval: { mode: "deny" } } }, "ok", "no gateway keys"],
    ["the legacy token", { gateway: { auth: { token: "t" } } }, "ok", "need a key"],
    [
      "keys",
      { gateway: { auth: { keys: [{ id: "a", token: "t", scopes: ["runs"] }] } } },
      "ok",
      "need a key",
    ],
    ["an empty key list", { gateway: { auth: { keys: [] } } }, "warn", "any process on this machine"],
    ["an empty token (env variable unset)", { gateway: { auth: { token: "" } } }, "warn", "no gateway.auth"],
  ])("%s → %s", (_name, config, status, message) => {
    const [check] = checkGatewayAuth(config);
    expect(check?.status).toBe(status);
    expect(check?.message).toContain(message);
    if (status === "warn") expect(check?.fix).toContain("gateway.auth.keys");
  });
});
