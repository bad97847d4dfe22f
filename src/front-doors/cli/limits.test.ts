import { describe, expect, it } from "vitest";
import { DEFAULT_MOCK_CLI_PORT } from "../../dev/mock-openai/index.js";
import { MAIN_AGENT_ID } from "../../runtime/config/index.js";
import { DEFAULT_BIND_HOST } from "../../runtime/http-guard/index.js";
import { GATEWAY_DRAIN_TIMEOUT_MS } from "../gateway/index.js";
import { CONNECTION_CLOSE_GRACE_MS } from "../http-server/index.js";
import { GATEWAY_STOP_DEADLINE_MS } from "./limits.js";
import { DEFAULT_MCP_HTTP_HOST } from "./mcp-command.js";
import { MOCK_OPENAI_DEFAULT_PORT } from "./mock-openai-command.js";
import { MAIN_AGENT_ID_SHOWN } from "./sessions-command.js";

describe("cli limits repeated from heavier folders (so declaring a command stays cheap)", () => {
  it("the mock-openai port in the help is the port the mock listens on", () => {
    expect(MOCK_OPENAI_DEFAULT_PORT).toBe(DEFAULT_MOCK_CLI_PORT);
  });

  it("the default agent in the sessions help is the config's main agent", () => {
    expect(MAIN_AGENT_ID_SHOWN).toBe(MAIN_AGENT_ID);
  });

  it("mcp serve --http binds where every front door binds by default", () => {
    expect(DEFAULT_MCP_HTTP_HOST).toBe(DEFAULT_BIND_HOST);
  });

  it("the gateway's stop deadline leaves room for the whole drain and the connection close grace", () => {
    expect(GATEWAY_STOP_DEADLINE_MS).toBeGreaterThan(GATEWAY_DRAIN_TIMEOUT_MS + CONNECTION_CLOSE_GRACE_MS);
  });
});
