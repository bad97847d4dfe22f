import { expect, it } from "vitest";
import { MAX_CONTENT_SCAN_SESSIONS } from "./limits.js";
import type { SessionPageOptions } from "./page-sessions.js";
import type { SessionEvent, SessionStore } from "./types.js";

// The same search-by-content cases for every SessionStore with `listPage` (the file store, PostgreSQL).

const AT = "2026-01-01T00:00:00.000Z";

function said(type: "user-input" | "assistant-output", text: string, runId: string): SessionEvent {
  return {
    type,
    at: AT,
    runId,
    items: [{ type: "message", role: type === "user-input" ? "user" : "assistant", text }],
  } as SessionEvent;
}

function summary(status: "completed" | "failed", runId: string): SessionEvent {
  return { type: "run-summary", at: AT, runId, status, turns: 1, durationMs: 5 };
}

async function write(store: SessionStore, key: string, events: SessionEvent[], agentId = "main") {
  for (const event of events) await store.append(agentId, key, event);
}

async function keysOf(store: SessionStore, options: SessionPageOptions): Promise<string[]> {
  const page = await store.listPage?.(options);
  if (page === undefined) throw new Error("the store has no listPage");
  return page.data.map((session) => session.sessionKey).sort();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the cases; `open` gives an empty store. */
export function contentSearchCases(open: () => Promise<SessionStore>): void {
  it("finds sessions by the last run's status and by text in the user's input or the model's output", async () => {
    const store = await open();
    await write(store, "done", [
      said("user-input", "Book a flight to Lisbon", "r1"),
      said("assistant-output", "Booked the LISBON flight for you", "r1"),
      summary("completed", "r1"),
    ]);
    await write(store, "failed", [said("user-input", "weather in Oslo", "r1"), summary("failed", "r1")]);
    await write(store, "running", [
      said("user-input", "first", "r1"),
      summary("completed", "r1"),
      said("user-input", "still going", "r2"),
    ]);
    await write(store, "tool-only", [
      said("user-input", "hi", "r1"),
      {
        type: "tool-result",
        at: AT,
        runId: "r1",
        callId: "c1",
        name: "tool_search",
        isError: false,
        output: "lisbon appears only in a tool result",
      },
      summary("completed", "r1"),
    ]);
    await write(store, "helper-lisbon", [said("user-input", "Lisbon too", "r1")], "helper");

    expect(await keysOf(store, { limit: 20, content: { status: "completed" } })).toEqual([
      "done",
      "tool-only",
    ]);
    expect(await keysOf(store, { limit: 20, content: { status: "failed" } })).toEqual(["failed"]);
    expect(await keysOf(store, { limit: 20, content: { status: "running" } })).toEqual([
      "helper-lisbon",
      "running",
    ]);
    expect(await keysOf(store, { limit: 20, content: { text: "lisbon" } })).toEqual([
      "done",
      "helper-lisbon",
    ]);
    expect(await keysOf(store, { limit: 20, content: { text: "FLIGHT FOR" } })).toEqual(["done"]);
    expect(await keysOf(store, { limit: 20, content: { text: "lisbon", status: "failed" } })).toEqual([]);
    expect(await keysOf(store, { limit: 20, content: { text: "going", status: "running" } })).toEqual([
      "running",
    ]);
    // With the page's filter (an agent, an owner) first.
    expect(
      await keysOf(store, {
        limit: 20,
        content: { text: "lisbon" },
        filter: (session) => session.agentId === "main",
      }),
    ).toEqual(["done"]);

    // Paged: `limit` matches, then the rest after the last one's id.
    const first = await store.listPage?.({ limit: 1, content: { status: "completed" } });
    expect(first?.data).toHaveLength(1);
    expect(first?.hasMore).toBe(true);
    const second = await store.listPage?.({
      limit: 1,
      content: { status: "completed" },
      after: first?.data[0]?.id ?? "",
    });
    expect(second?.data).toHaveLength(1);
    expect(second?.data[0]?.id).not.toBe(first?.data[0]?.id);
    expect(second?.hasMore).toBe(false);
  });

  it(`reads at most ${MAX_CONTENT_SCAN_SESSIONS} sessions per page; the next page goes on from where it stopped`, async () => {
    const store = await open();
    await write(store, "needle", [said("user-input", "the rare needle", "r1")]);
    await pause(20);
    for (let index = 0; index < MAX_CONTENT_SCAN_SESSIONS + 5; index += 1) {
      await store.append("main", `hay-${String(index).padStart(4, "0")}`, said("user-input", "hay", "r1"));
    }
    const first = await store.listPage?.({ limit: 20, content: { text: "needle" } });
    expect(first?.data).toEqual([]);
    expect(first?.hasMore).toBe(true);
    expect(first?.scannedTo).toMatch(/^main\/hay-/u);
    const next = await store.listPage?.({
      limit: 20,
      content: { text: "needle" },
      after: first?.scannedTo ?? "",
    });
    expect(next?.data.map((session) => session.sessionKey)).toEqual(["needle"]);
    expect(next?.hasMore).toBe(false);
  });
}

/** Registers the `onAppended` cases; `open` gives an empty store. */
export function appendWatchCases(open: () => Promise<SessionStore>): void {
  it("tells onAppended listeners of each append once it went through, until they stop listening", async () => {
    const store = await open();
    const told: string[] = [];
    const stop = store.onAppended?.((agentId, sessionKey) => told.push(`${agentId}/${sessionKey}`));
    if (stop === undefined) throw new Error("the store has no onAppended");
    store.onAppended?.(() => {
      throw new Error("a failing listener");
    });
    await write(store, "watched", [said("user-input", "one", "r1"), said("user-input", "two", "r1")]);
    expect(told).toEqual(["main/watched", "main/watched"]);
    expect(await store.read("main", "watched")).toHaveLength(2);
    stop();
    await write(store, "watched", [said("user-input", "three", "r1")]);
    expect(told).toHaveLength(2);
  });
}
