import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConsoleChatFrame } from "../console/index.js";
import { type ChatApproval, watchChatApprovals } from "./console-chat-approvals.js";
import { CHAT_APPROVALS_REREAD_MS } from "./limits.js";

// The chat's approval watch over a ledger of its own making, on fake timers: what reaches the page comes from
// the broker's change feed at once, and from the slow re-read only when no change was announced.

function approval(id: string): ChatApproval {
  return {
    type: "approval",
    id,
    toolId: "native:t:x",
    toolName: "x",
    args: {},
    expiresAt: "2099-01-01T00:00:00Z",
  };
}

/** A shared ledger's view from this process: what `read` lists, and whether its changes are announced here. */
function ledger() {
  let pending: ChatApproval[] = [];
  const listeners = new Set<() => void>();
  let reads = 0;
  return {
    source: {
      read: async () => {
        reads += 1;
        return pending.map((one) => ({ ...one }));
      },
      onChange: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    /** Sets the pending list; `announce` tells the listeners (a change of this process, or one announced). */
    set(next: ChatApproval[], announce: boolean) {
      pending = next;
      if (announce) for (const listener of [...listeners]) listener();
    },
    listeners,
    reads: () => reads,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the chat's approval watch", () => {
  it("tells an approval published and settled in this process at once, with no re-read", async () => {
    const shared = ledger();
    const frames: ConsoleChatFrame[] = [];
    const watch = watchChatApprovals(shared.source, (more) => frames.push(...more));
    watch.callStarted("call_1");
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([]);
    shared.set([approval("appr_1")], true);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([approval("appr_1")]);
    shared.set([], true);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([approval("appr_1"), { type: "approval-closed", id: "appr_1" }]);
    // Well before the safety net's first re-read: one read at the call's start, one per change.
    expect(shared.reads()).toBe(3);
    watch.stop();
    expect(shared.listeners.size).toBe(0);
  });

  it("a change announced before the call's start event is read when the call starts", async () => {
    const shared = ledger();
    const frames: ConsoleChatFrame[] = [];
    const watch = watchChatApprovals(shared.source, (more) => frames.push(...more));
    shared.set([approval("appr_early")], true);
    await vi.advanceTimersByTimeAsync(0);
    // No call in flight: nothing is read or told.
    expect(shared.reads()).toBe(0);
    watch.callStarted("call_1");
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([approval("appr_early")]);
    watch.stop();
  });

  it("a burst of changes is read at most twice (one read running, one after it)", async () => {
    const shared = ledger();
    const frames: ConsoleChatFrame[] = [];
    const watch = watchChatApprovals(shared.source, (more) => frames.push(...more));
    watch.callStarted("call_1");
    for (let index = 0; index < 20; index += 1) shared.set([approval("appr_1")], true);
    await vi.advanceTimersByTimeAsync(0);
    expect(shared.reads()).toBe(2);
    expect(frames).toEqual([approval("appr_1")]);
    watch.stop();
  });

  it("a decision made on another gateway that no announcement brought here is closed by the re-read", async () => {
    const shared = ledger();
    const frames: ConsoleChatFrame[] = [];
    const watch = watchChatApprovals(shared.source, (more) => frames.push(...more));
    watch.callStarted("call_1");
    shared.set([approval("appr_1")], true);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([approval("appr_1")]);
    // Settled elsewhere, and this process is not told (a lost notification); the call still waits.
    shared.set([], false);
    await vi.advanceTimersByTimeAsync(CHAT_APPROVALS_REREAD_MS - 1);
    expect(frames).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(frames).toEqual([approval("appr_1"), { type: "approval-closed", id: "appr_1" }]);
    watch.stop();
  });

  it("tells nothing once no call is in flight, closes what was shown when its call finishes, and stops re-reading", async () => {
    const shared = ledger();
    const frames: ConsoleChatFrame[] = [];
    const watch = watchChatApprovals(shared.source, (more) => frames.push(...more));
    watch.callStarted("call_1");
    shared.set([approval("appr_1")], true);
    await vi.advanceTimersByTimeAsync(0);
    watch.callFinished("call_1");
    expect(frames).toEqual([approval("appr_1"), { type: "approval-closed", id: "appr_1" }]);
    const reads = shared.reads();
    shared.set([approval("appr_2")], true);
    await vi.advanceTimersByTimeAsync(CHAT_APPROVALS_REREAD_MS * 3);
    expect(shared.reads()).toBe(reads);
    expect(frames).toHaveLength(2);
    watch.stop();
  });

  it("a ledger that cannot be read is read again at the next change", async () => {
    const shared = ledger();
    let failing = true;
    const frames: ConsoleChatFrame[] = [];
    const watch = watchChatApprovals(
      {
        read: async () => {
          if (failing) throw new Error("storage unavailable");
          return shared.source.read();
        },
        onChange: shared.source.onChange,
      },
      (more) => frames.push(...more),
    );
    watch.callStarted("call_1");
    shared.set([approval("appr_1")], true);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([]);
    failing = false;
    shared.set([approval("appr_1")], true);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([approval("appr_1")]);
    watch.stop();
  });
});
