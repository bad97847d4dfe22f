import type { ConsoleChatFrame } from "../console/index.js";
import { CHAT_APPROVALS_REREAD_MS } from "./limits.js";

/** An approval of the chat's session as the page shows it inline. */
export type ChatApproval = Extract<ConsoleChatFrame, { type: "approval" }>;

/** Where the watch reads from: the session's pending approvals, and the broker's change feed. */
export type ChatApprovalSource = {
  /** The approvals waiting in the chat's session that the caller may decide. */
  read(): Promise<ChatApproval[]>;
  /** Tells `listener` when the pending list may have changed (`ApprovalBroker.onChange`); returns the stop. */
  onChange(listener: () => void): () => void;
};

/** What the chat's frames tell the watch: calls starting and finishing, and the chat's end. */
export type ChatApprovalWatch = {
  callStarted(callId: string): void;
  callFinished(callId: string): void;
  stop(): void;
};

/**
 * Tells the chat's approvals as frames while a call is in flight (an approval only ever waits inside a call):
 * each one once when it appears and once when it is gone. The session's pending approvals are read once when
 * a call starts and once after each change the broker tells of (an approval published or settled by this
 * process, or a settlement a shared ledger announces), a burst of changes coalescing into one more read; and,
 * as a safety net for a change no announcement reached (a decision on another gateway of a fleet whose
 * notification was lost), every `CHAT_APPROVALS_REREAD_MS` while a call runs. Without a source it tells
 * nothing.
 */
export function watchChatApprovals(
  source: ChatApprovalSource | undefined,
  push: (frames: ConsoleChatFrame[]) => void,
): ChatApprovalWatch {
  const inFlight = new Set<string>();
  const shown = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let reading = false;
  let again = false;
  let stopped = false;
  const read = async (): Promise<void> => {
    if (source === undefined || stopped || inFlight.size === 0) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        let pending: ChatApproval[];
        try {
          pending = await source.read();
        } catch {
          // A ledger that cannot be read now is read again at the next change or re-read; the waiting call
          // is denied anyway if no decision reaches it.
          return;
        }
        // Nothing is told once no call is in flight (the call that waited has finished or the chat ended).
        if (stopped || inFlight.size === 0) return;
        tell(pending);
      } while (again);
    } finally {
      reading = false;
    }
  };
  const tell = (pending: ChatApproval[]): void => {
    const ids = new Set(pending.map((approval) => approval.id));
    const frames: ConsoleChatFrame[] = pending.filter((approval) => !shown.has(approval.id));
    for (const id of shown) if (!ids.has(id)) frames.push({ type: "approval-closed", id });
    for (const frame of frames) {
      if (frame.type === "approval") shown.add(frame.id);
      else if (frame.type === "approval-closed") shown.delete(frame.id);
    }
    if (frames.length > 0) push(frames);
  };
  // Subscribed for the chat's whole life: a change that comes before its call's start is read then.
  const unsubscribe = source?.onChange(() => void read());
  const stopRereads = (): void => {
    clearInterval(timer);
    timer = undefined;
  };
  return {
    callStarted(callId) {
      if (source === undefined || stopped) return;
      inFlight.add(callId);
      if (timer === undefined) timer = setInterval(() => void read(), CHAT_APPROVALS_REREAD_MS);
      void read();
    },
    callFinished(callId) {
      inFlight.delete(callId);
      if (inFlight.size > 0) return;
      stopRereads();
      // Whatever was shown is settled now that its call finished.
      const closed: ConsoleChatFrame[] = [...shown].map((id) => ({ type: "approval-closed", id }));
      shown.clear();
      if (closed.length > 0) push(closed);
    },
    stop() {
      stopped = true;
      stopRereads();
      unsubscribe?.();
    },
  };
}
