import { describe, expect, it } from "vitest";
import { ToolsiftError } from "../../shared/errors/index.js";
import type { SessionEvent, SessionStore } from "../sessions/index.js";
import { openSessionLog } from "./open-session-log.js";

const PROVIDER_KEY = "pear-orchard-walnut-7319";
const PASSWORD = "hunter2-correct-horse";

/** A store that keeps appended events in memory, or refuses every append with `failure`. */
function memoryStore(failure?: Error): SessionStore & { events: SessionEvent[] } {
  const events: SessionEvent[] = [];
  return {
    events,
    async append(_agentId, _sessionKey, event) {
      if (failure) throw failure;
      events.push(event);
    },
    read: async () => [...events],
    list: async () => [],
  };
}

function open(store: SessionStore, lines: string[] = []) {
  return openSessionLog({
    sessions: store,
    agentId: "main",
    sessionKey: "s1",
    keyId: "ci",
    secrets: [PROVIDER_KEY],
    log: (line) => lines.push(line),
  });
}

describe("openSessionLog", () => {
  it("writes the session header every front door writes", async () => {
    const store = memoryStore();
    await open(store).appendHeader("2026-01-01T00:00:00.000Z");
    expect(store.events).toEqual([
      {
        type: "session",
        version: 1,
        agentId: "main",
        sessionKey: "s1",
        keyId: "ci",
        at: "2026-01-01T00:00:00.000Z",
      },
    ]);
  });

  it("stamps a run's lines with its id and redacts the known secrets, and those it learns, from then on", async () => {
    const store = memoryStore();
    const run = open(store).startRun("run_1");
    await run.append({
      type: "assistant-output",
      items: [{ type: "message", role: "assistant", text: PROVIDER_KEY }],
    });
    run.learnSecrets(JSON.stringify({ password: PASSWORD }));
    await run.append({
      type: "tool-result",
      callId: "c1",
      name: "echo",
      isError: false,
      output: `got ${PASSWORD}`,
    });
    expect(store.events.map((event) => [event.runId, event.type])).toEqual([
      ["run_1", "assistant-output"],
      ["run_1", "tool-result"],
    ]);
    expect(store.events[0]?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.stringify(store.events)).not.toContain(PROVIDER_KEY);
    expect(store.events[1]).toMatchObject({ output: "got [REDACTED]" });
    expect(run.redactKnown(`key ${PROVIDER_KEY}, password ${PASSWORD}`)).toBe(
      "key [REDACTED], password [REDACTED]",
    );
  });

  it("keeps what one run learns to that run", async () => {
    const store = memoryStore();
    const log = open(store);
    log.startRun("run_1").learnSecrets({ password: PASSWORD });
    await log
      .startRun("run_2")
      .append({ type: "tool-result", callId: "c", name: "t", isError: false, output: PASSWORD });
    expect(store.events[0]).toMatchObject({ output: PASSWORD });
  });

  it("notes a queued line that failed, redacted, but not a full state directory (the store says so once)", async () => {
    const lines: string[] = [];
    const failing = open(memoryStore(new Error(`disk said ${PROVIDER_KEY}`)), lines).startRun("run_1");
    failing.queue({ type: "assistant-output", items: [] }, "run run_1: could not log");
    failing.queue({ type: "assistant-output", items: [] });
    const full = open(memoryStore(new ToolsiftError("STORAGE_UNAVAILABLE", "full")), lines).startRun("run_2");
    full.queue({ type: "assistant-output", items: [] }, "run run_2: could not log");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(["run run_1: could not log: disk said [REDACTED]"]);
  });
});
