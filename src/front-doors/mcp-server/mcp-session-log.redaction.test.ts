import { readFile } from "node:fs/promises";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { serveInMemory } from "./mcp-server.test-support.js";

// The known-value redaction of a gateway run, in the session log of an MCP connection: a secret the config
// holds (a provider key), and the value of a secret-named argument, are redacted wherever a tool repeats
// them as free text, which no key name or shape gives away.

/** Shaped like no known key: only its being known gets it redacted. */
const CONFIG_SECRET = "pear-orchard-walnut-7319";
const PASSWORD = "hunter2-correct-horse";

const echo: ToolDefinition = {
  name: "notes_echo",
  description: "Echo a note back.",
  parameters: { type: "object", properties: { text: { type: "string" }, password: { type: "string" } } },
  origin: { kind: "plugin", owner: "notes" },
  execute: async (args) => {
    const { text, password } = args as { text?: string; password?: string };
    return { content: [{ type: "text", text: `noted ${text}, kept ${password}` }] };
  },
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Calls the echo tool through `tool_call` on a connection whose config holds `secrets`; the log's text. */
async function loggedCall(
  secrets: readonly string[] | undefined,
): Promise<{ answer: string; logged: string }> {
  const serve = await serveInMemory({ tools: [echo], ...(secrets === undefined ? {} : { secrets }) });
  closers.push(serve.close);
  const result = (await serve.client.callTool({
    name: "tool_call",
    arguments: { id: "notes_echo", args: { text: `key ${CONFIG_SECRET}`, password: PASSWORD } },
  })) as CallToolResult;
  const answer = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  return { answer, logged: await readFile(serve.logPath, "utf8") };
}

describe("the session log of an MCP connection redacts known secrets as a gateway run's does", () => {
  it("redacts a config secret and a secret-named argument's value where the tool repeats them", async () => {
    const { answer, logged } = await loggedCall([CONFIG_SECRET]);
    // The client sees its own data; the log does not.
    expect(answer).toContain(CONFIG_SECRET);
    expect(answer).toContain(PASSWORD);
    expect(logged).not.toContain(CONFIG_SECRET);
    expect(logged).not.toContain(PASSWORD);
    const events = logged
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; output?: string; result?: string });
    expect(events.map((event) => event.type)).toEqual([
      "session",
      "target-activity",
      "tool-result",
      "run-summary",
    ]);
    expect(events.find((event) => event.type === "tool-result")?.output).toContain(
      "noted key [REDACTED], kept [REDACTED]",
    );
    expect(events.find((event) => event.type === "target-activity")?.result).toContain(
      "noted key [REDACTED], kept [REDACTED]",
    );
  });

  it("without the config's secrets, redacts only what the call showed (the probe has no secret shape)", async () => {
    const { logged } = await loggedCall(undefined);
    expect(logged).toContain(`noted key ${CONFIG_SECRET}, kept [REDACTED]`);
    expect(logged).not.toContain(PASSWORD);
  });
});
