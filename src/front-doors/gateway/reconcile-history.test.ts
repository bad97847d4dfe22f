import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../../runtime/providers/index.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";
import {
  afterLastAssistantItem,
  carriesHistory,
  type HistoryReconciliation,
  reconcileHistory,
} from "./reconcile-history.js";

const at = "2026-01-01T00:00:00.000Z";
const user = (text: string): ConversationItem => ({ type: "message", role: "user", text });
const assistant = (text: string): ConversationItem => ({ type: "message", role: "assistant", text });
const call = (callId: string, name: string): ConversationItem => ({
  type: "function_call",
  callId,
  name,
  arguments: "{}",
});
const output = (callId: string, text = "done"): ConversationItem => ({
  type: "function_call_output",
  callId,
  output: text,
});

/** One logged run: its input, what the model did (tool_call and its own tools included), and its summary. */
function run(
  runId: string,
  input: ConversationItem[],
  model: ConversationItem[],
  handoffs: Array<{ callId: string; name: string }> = [],
): SessionEvent[] {
  return [
    { at, runId, type: "user-input", items: input },
    { at, runId, type: "assistant-output", items: model },
    {
      at,
      runId,
      type: "run-summary",
      status: handoffs.length > 0 ? "requires_action" : "completed",
      turns: 1,
      durationMs: 1,
      ...(handoffs.length > 0
        ? { handoffs: handoffs.map((handoff) => ({ ...handoff, arguments: '{"note":"x"}' })) }
        : {}),
    },
  ];
}

const header: SessionEvent = { at, type: "session", version: 1, agentId: "main", sessionKey: "k" };
// Run 1 found the client tool `paint` through tool_search and reached it through `tool_call` (call c1,
// handed to the client as `paint`); run 2 got its output and answered; both are in the log.
const log: SessionEvent[] = [
  header,
  ...run(
    "r1",
    [user("paint it")],
    [call("s1", "tool_search"), call("c1", "tool_call")],
    [{ callId: "c1", name: "paint" }],
  ),
  {
    at,
    runId: "r1",
    type: "tool-result",
    callId: "s1",
    name: "tool_search",
    isError: false,
    output: "found",
  },
  ...run("r2", [output("c1", "painted")], [assistant("It is painted.")]),
];
// What a stateless client resends: its own view (the handoff as `paint`, no internal calls).
const resent: ConversationItem[] = [
  user("paint it"),
  call("c1", "paint"),
  output("c1", "painted"),
  assistant("It is painted."),
];

describe("reconcileHistory", () => {
  it.each<[string, ConversationItem[], SessionEvent[], HistoryReconciliation]>([
    [
      "first request: nothing logged, everything is new",
      [user("hi")],
      [],
      { kind: "new", items: [user("hi")] },
    ],
    ["first request carrying history: all of it is new", resent, [header], { kind: "new", items: resent }],
    [
      "a follow-up: only the new user message",
      [...resent, user("thanks")],
      log,
      { kind: "new", items: [user("thanks")] },
    ],
    [
      "a client tool output answering a handoff in the log",
      [user("paint it"), call("c1", "paint"), output("c1", "painted")],
      log.slice(0, 5),
      { kind: "new", items: [output("c1", "painted")] },
    ],
    [
      "a client tool output with a user message after it",
      [user("paint it"), call("c1", "paint"), output("c1", "painted"), user("and then?")],
      log.slice(0, 5),
      { kind: "new", items: [output("c1", "painted"), user("and then?")] },
    ],
    ["a retried request: nothing new", resent, log, { kind: "repeat" }],
    ["a retried first request", [user("paint it")], log.slice(0, 2), { kind: "repeat" }],
    [
      "new calls the client sent itself come with the assistant text before them",
      [...resent, assistant("Let me check."), call("x9", "lookup"), output("x9", "ok")],
      log,
      { kind: "new", items: [assistant("Let me check."), call("x9", "lookup"), output("x9", "ok")] },
    ],
  ])("%s", (_name, items, events, expected) => {
    expect(reconcileHistory(items, events)).toEqual(expected);
  });

  it("an edited earlier message diverges, and one edited conversation always names the same branch", () => {
    const edited = [user("paint it blue"), assistant("ok"), user("thanks")];
    const first = reconcileHistory(edited, log);
    expect(first.kind).toBe("diverged");
    const later = reconcileHistory([...edited, assistant("sure"), user("more")], log);
    expect(later).toEqual(first);
    const otherEdit = reconcileHistory([user("paint it red")], log);
    expect(otherEdit.kind).toBe("diverged");
    expect(otherEdit).not.toEqual(first);
  });

  it("a truncated history (fewer turns than the log) diverges", () => {
    const outcome = reconcileHistory([user("paint it")], log);
    expect(outcome.kind).toBe("diverged");
  });

  it("a handoff the client answers under another call id diverges", () => {
    const outcome = reconcileHistory([user("paint it"), call("zz", "paint"), output("zz")], log.slice(0, 5));
    expect(outcome.kind).toBe("diverged");
  });

  it("a user text the log holds redacted still matches the text sent", () => {
    const redacted: SessionEvent[] = [
      header,
      ...run("r1", [user("my password=[REDACTED] and key [REDACTED] ok")], [assistant("noted")]),
    ];
    const sent = [user("my password=hunter2 and key sk-abc ok"), assistant("noted"), user("next")];
    expect(reconcileHistory(sent, redacted)).toEqual({ kind: "new", items: [user("next")] });
    const wrong = [user("my secret=hunter2 and key sk-abc ok"), assistant("noted"), user("next")];
    expect(reconcileHistory(wrong, redacted).kind).toBe("diverged");
  });

  it("skips malformed logged items and handoffs (a log is read, not trusted)", () => {
    const broken = [
      header,
      { at, runId: "r1", type: "user-input", items: [null, 7, { type: "message" }, user("hi")] },
      {
        at,
        runId: "r1",
        type: "run-summary",
        status: "completed",
        turns: 1,
        durationMs: 1,
        handoffs: [null, {}],
      },
    ] as unknown as SessionEvent[];
    expect(reconcileHistory([user("hi"), assistant("a"), user("b")], broken)).toEqual({
      kind: "new",
      items: [user("b")],
    });
  });
});

describe("afterLastAssistantItem and carriesHistory", () => {
  it.each([
    ["new items only are kept", [user("a")], [user("a")], false],
    ["resent history is dropped", [user("a"), assistant("b"), user("c")], [user("c")], true],
    ["a function call ends the history", [user("a"), call("c1", "f"), output("c1")], [output("c1")], true],
    ["nothing after the assistant leaves nothing", [user("a"), assistant("b")], [], true],
  ])("%s", (_name, items, expected, carries) => {
    expect(afterLastAssistantItem(items)).toEqual(expected);
    expect(carriesHistory(items)).toBe(carries);
  });
});
