import { Command } from "commander";
import { loadConfig } from "../config/index.js";
import { createFileSessionStore, summarizeSession } from "../sessions/index.js";
import type { CliIo } from "./types.js";

/** The `sessions` command: list session logs, or show one with its summary. */
export function createSessionsCommand(io: CliIo): Command {
  const sessions = new Command("sessions")
    .description("list session logs (newest first), or show one")
    .option("--json", "print JSON")
    .option("--config <file>", "config file (JSON5)")
    .action(async (options: { json?: boolean; config?: string }) => {
      const store = await storeFor(options.config);
      const list = await store.list();
      if (options.json) io.stdout(`${JSON.stringify(list, null, 2)}\n`);
      else if (list.length === 0) io.stdout("No sessions yet.\n");
      else
        for (const item of list)
          io.stdout(`${item.updatedAt}  ${item.agentId}/${item.sessionKey}  ${item.bytes} bytes\n`);
    });
  sessions
    .command("show")
    .description("show one session's events and what they answer")
    .argument("<key>", "session key")
    .option("--agent <id>", "agent id", "main")
    .option("--json", "print the events as JSON")
    .option("--config <file>", "config file (JSON5)")
    .action(async (key: string, options: { agent: string; json?: boolean; config?: string }) => {
      const store = await storeFor(options.config);
      const events = await store.read(options.agent, key);
      if (events.length === 0) throw new Error(`No session "${key}" for agent "${options.agent}".`);
      const summary = summarizeSession(events);
      if (options.json) {
        io.stdout(`${JSON.stringify({ summary, events }, null, 2)}\n`);
        return;
      }
      const final = summary.finalTool ? `${summary.finalTool.id} (${summary.finalTool.source})` : "none";
      io.stdout(
        [
          `session ${options.agent}/${key}: ${events.length} events, ${summary.requests} model requests`,
          `schemas declared up front: ${summary.schemasDeclaredUpFront}`,
          `searches: ${summary.searches}, describes: ${summary.describes}, calls: ${summary.calls}`,
          `final tool: ${final}`,
          "",
        ].join("\n"),
      );
    });
  return sessions;
}

async function storeFor(configPath: string | undefined) {
  const loaded = await loadConfig(configPath ? { configPath } : {});
  return createFileSessionStore(loaded.stateDir);
}
