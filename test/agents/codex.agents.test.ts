// Codex CLI (pinned in test/agents/package.json) as a tested client of toolsift: through the gateway's
// Responses API, and with `toolsift mcp serve` as its MCP server. See agent-lanes.test-support.ts.
import { codex } from "./agent-clis.test-support.js";
import { describeAgentLanes } from "./agent-lanes.test-support.js";

describeAgentLanes(codex);
