import { describe, expect, it } from "vitest";
import type { ToolsiftConfig } from "../../runtime/config/index.js";
import { configSecrets, redactingLog } from "./redacting-log.js";

describe("configSecrets", () => {
  it("lists provider keys, secret-named headers, the gateway token, secret-named MCP env and headers and OTLP headers", () => {
    const config: ToolsiftConfig = {
      models: {
        providers: {
          a: {
            api: "openai-responses",
            apiKey: "key-a",
            headers: { "X-Api-Key": "hdr-a", "X-Trace": "trace" },
          },
          b: { api: "openai-chat" },
        },
      },
      gateway: { auth: { token: "gw-token" } },
      mcp: {
        servers: {
          gh: { command: "gh-mcp", env: { GITHUB_TOKEN: "ghtok", PATH: "/usr/bin" } },
          remote: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer remote-tok" } },
        },
      },
      telemetry: { otlp: { headers: { authorization: "Bearer otlp-tok", "x-team": "search" } } },
    };
    expect(configSecrets(config).sort()).toEqual([
      "Bearer otlp-tok",
      "Bearer remote-tok",
      "ghtok",
      "gw-token",
      "hdr-a",
      "key-a",
    ]);
    expect(configSecrets({})).toEqual([]);
  });
});

describe("redactingLog", () => {
  it("removes the known secrets and secret shapes, and keeps ordinary lines as they are", () => {
    const lines: string[] = [];
    const log = redactingLog((line) => lines.push(line), ["plain-config-key"]);
    log("plugin x skipped: cannot connect with plain-config-key");
    log("upstream said Authorization: Bearer abc.def.ghi and sk-proj-0123456789abcdefghij");
    log("POST /v1/responses 200 12ms");
    log("gateway auth: every route but /healthz requires Authorization: Bearer <gateway.auth.token>");
    expect(lines).toEqual([
      "plugin x skipped: cannot connect with [REDACTED]",
      "upstream said Authorization: Bearer [REDACTED] and [REDACTED]",
      "POST /v1/responses 200 12ms",
      "gateway auth: every route but /healthz requires Authorization: Bearer <gateway.auth.token>",
    ]);
  });
});
