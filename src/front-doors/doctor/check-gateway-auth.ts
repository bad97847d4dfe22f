import { DEFAULT_APPROVAL_REQUIRE } from "../../runtime/approvals/index.js";
import { readConfigPath } from "../../runtime/config/index.js";
import type { DoctorCheck } from "./types.js";

/**
 * Checks who may decide approvals: with calls that wait for an operator (`tools.approval.require`, by
 * default `exec`, in mode `ask`) and a gateway with neither `gateway.auth.token` nor `gateway.auth.keys`, any
 * process on the machine can approve them (`POST /v1/approvals/:id`): a warning naming the fix. Reads the
 * config after `env:` resolution, so a token whose variable is unset counts as none.
 */
export function checkGatewayAuth(config: unknown): DoctorCheck[] {
  const token = readConfigPath(config, ["gateway", "auth", "token"]).value;
  const keys = readConfigPath(config, ["gateway", "auth", "keys"]).value;
  const guarded = (typeof token === "string" && token.length > 0) || (Array.isArray(keys) && keys.length > 0);
  if (guarded) {
    return [{ name: "gateway-auth", status: "ok", message: "the gateway and mcp serve --http need a key" }];
  }
  const mode = readConfigPath(config, ["tools", "approval", "mode"]).value ?? "ask";
  const required = readConfigPath(config, ["tools", "approval", "require"]);
  const require = required.found && Array.isArray(required.value) ? required.value : DEFAULT_APPROVAL_REQUIRE;
  if (mode !== "ask" || require.length === 0) {
    return [
      {
        name: "gateway-auth",
        status: "ok",
        message:
          "no gateway keys: loopback only, every local caller trusted (no approvals wait for an operator)",
      },
    ];
  }
  return [
    {
      name: "gateway-auth",
      status: "warn",
      message:
        `calls to ${require.join(", ")} wait for approval (tools.approval.require), but the gateway has no ` +
        "gateway.auth.token or gateway.auth.keys: any process on this machine can list and approve them",
      fix:
        'add gateway.auth.keys (e.g. [{ id: "ops", token: "env:TOOLSIFT_OPS_TOKEN", scopes: ["admin"] }]) or ' +
        'gateway.auth.token: "env:TOOLSIFT_GATEWAY_TOKEN"',
    },
  ];
}
