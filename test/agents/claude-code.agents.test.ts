// Claude Code (pinned in test/agents/package.json) as a tested client of toolsift: through the gateway's
// Anthropic Messages API, and with `toolsift mcp serve` as its MCP server. See agent-lanes.test-support.ts.
import { claudeCode } from "./agent-clis.test-support.js";
import { describeAgentLanes } from "./agent-lanes.test-support.js";

describeAgentLanes(claudeCode);
