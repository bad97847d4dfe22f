import { describe, expect, it } from "vitest";
import type { ConversationItem } from "../../runtime/providers/index.js";
import { isValidSessionKey } from "../../runtime/sessions/index.js";
import {
  branchSessionKey,
  chooseSessionKey,
  conversationFingerprint,
  readSessionHints,
  resendsWholeHistory,
  type SessionHints,
} from "./session-hints.js";

const UUID = "0538fb8f-d4c6-4908-b4b3-46b669abc44e";
const OTHER_UUID = "11111111-2222-4333-8444-555555555555";

function headers(values: Record<string, string> = {}) {
  return { header: (name: string) => values[name] };
}

const user = (text: string): ConversationItem => ({ type: "message", role: "user", text });
const assistant = (text: string): ConversationItem => ({ type: "message", role: "assistant", text });

describe("readSessionHints", () => {
  it.each<[string, Record<string, string>, unknown, SessionHints]>([
    ["nothing", {}, { input: "hi" }, {}],
    ["a body that is not an object", {}, "text", {}],
    ["conversation as a string", {}, { conversation: "conv_123" }, { conversation: "conv_123" }],
    ["conversation as { id }", {}, { conversation: { id: "conv_456" } }, { conversation: "conv_456" }],
    ["conversation of another type", {}, { conversation: 7 }, {}],
    ["prompt_cache_key", {}, { prompt_cache_key: "thread-1" }, { promptCacheKey: "thread-1" }],
    ["an empty prompt_cache_key", {}, { prompt_cache_key: "  " }, {}],
    ["an oversized prompt_cache_key", {}, { prompt_cache_key: "x".repeat(1025) }, {}],
    ["the Claude Code header", { "x-claude-code-session-id": UUID }, {}, { claudeCodeSession: UUID }],
    [
      "metadata.user_id as JSON text",
      {},
      { metadata: { user_id: JSON.stringify({ device_id: "d", account_uuid: "", session_id: UUID }) } },
      { claudeCodeSession: UUID },
    ],
    [
      "metadata.user_id in the older form",
      {},
      { metadata: { user_id: `user_abc123_account_${OTHER_UUID}_session_${UUID}` } },
      { claudeCodeSession: UUID },
    ],
    ["metadata.user_id without a session", {}, { metadata: { user_id: "user_abc123" } }, {}],
    ["metadata.user_id as broken JSON", {}, { metadata: { user_id: '{"session_id": ' } }, {}],
    [
      "the header before metadata.user_id",
      { "x-claude-code-session-id": OTHER_UUID },
      { metadata: { user_id: JSON.stringify({ session_id: UUID }) } },
      { claudeCodeSession: OTHER_UUID },
    ],
  ])("%s", (_name, given, body, expected) => {
    expect(readSessionHints(headers(given), body)).toEqual(expected);
  });

  it("reads what Codex and Claude Code send (values from captured requests)", () => {
    // Codex 0.171 (Responses): headers `session-id` and `x-codex-turn-metadata`, body `prompt_cache_key` = the
    // thread id and `client_metadata`.
    const thread = "01a241eb-d03c-7491-b62b-16fa80ebad87";
    const codexHints = readSessionHints(headers({ "session-id": thread }), {
      model: "toolsift",
      store: false,
      prompt_cache_key: thread,
      client_metadata: { "x-codex-turn-metadata": JSON.stringify({ session_id: thread, thread_id: thread }) },
    });
    expect(codexHints).toEqual({ promptCacheKey: thread });
    expect(chooseSessionKey({ hints: codexHints, fingerprint: () => "unused" }).sessionKey).toBe(
      `pck-${thread}`,
    );
    // Claude Code 2.1 (Messages): the header, and the same id inside `metadata.user_id` (JSON text).
    const body = {
      metadata: {
        user_id: JSON.stringify({
          device_id: "e225c605ba46ee65200db7c080592943cd5446378a247bad5eed24b564e64103",
          account_uuid: "",
          session_id: UUID,
        }),
      },
    };
    const claudeHints = readSessionHints(headers({ "x-claude-code-session-id": UUID }), body);
    expect(claudeHints).toEqual({ claudeCodeSession: UUID });
    expect(readSessionHints(headers(), body)).toEqual(claudeHints);
    expect(chooseSessionKey({ hints: claudeHints, fingerprint: () => "unused" }).sessionKey).toBe(
      `cc-${UUID}`,
    );
  });
});

describe("chooseSessionKey", () => {
  const all: SessionHints = { conversation: "conv_1", promptCacheKey: "pck_1", claudeCodeSession: UUID };

  it.each<[string, Parameters<typeof chooseSessionKey>[0], string, string]>([
    [
      "the header first",
      { header: "mine", previousResponseSession: "mine", hints: all, fingerprint: () => "f" },
      "mine",
      "header",
    ],
    [
      "previous_response_id next",
      { previousResponseSession: "s-1", hints: all, fingerprint: () => "f" },
      "s-1",
      "previous_response_id",
    ],
    ["then conversation", { hints: all, fingerprint: () => "f" }, "conv-conv_1", "conversation"],
    [
      "then prompt_cache_key",
      { hints: { promptCacheKey: "pck_1", claudeCodeSession: UUID }, fingerprint: () => "f" },
      "pck-pck_1",
      "prompt_cache_key",
    ],
    [
      "then Claude Code's session",
      { hints: { claudeCodeSession: UUID }, fingerprint: () => "f" },
      `cc-${UUID}`,
      "claude_code",
    ],
    ["else the fingerprint", { hints: {}, fingerprint: () => "abc" }, "fp-abc", "fingerprint"],
  ])("%s", (_name, options, key, source) => {
    expect(chooseSessionKey(options)).toEqual({ sessionKey: key, source });
  });

  it("hashes a value that is not a short plain key, so every derived key is a valid one", () => {
    const hostile = [
      "../../etc/passwd",
      "a/b",
      "x".repeat(97),
      "-starts-with-dash",
      "spaces in it",
      "é",
      "a\u0000b",
    ];
    const keys = hostile.map(
      (value) => chooseSessionKey({ hints: { promptCacheKey: value }, fingerprint: () => "f" }).sessionKey,
    );
    for (const key of keys) {
      expect(key).toMatch(/^pck--[0-9a-f]{24}$/u);
      expect(isValidSessionKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(hostile.length);
    // A plain value of the longest kept length stays readable and valid.
    const longest = chooseSessionKey({ hints: { conversation: "c".repeat(96) }, fingerprint: () => "f" });
    expect(longest.sessionKey).toBe(`conv-${"c".repeat(96)}`);
    expect(isValidSessionKey(longest.sessionKey)).toBe(true);
  });

  it("the fingerprint is computed only when nothing else names the session", () => {
    let computed = 0;
    chooseSessionKey({
      hints: { promptCacheKey: "p" },
      fingerprint: () => {
        computed += 1;
        return "f";
      },
    });
    expect(computed).toBe(0);
  });

  it("resent history is reconciled only for the sources whose clients resend it", () => {
    expect(
      (["header", "previous_response_id", "conversation"] as const).map((source) =>
        resendsWholeHistory(source),
      ),
    ).toEqual([false, false, false]);
    expect((["prompt_cache_key", "claude_code", "fingerprint"] as const).map(resendsWholeHistory)).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe("conversationFingerprint", () => {
  const opening = { agentId: "main", instructions: "Be brief.", items: [user("context"), user("say hi")] };
  const fingerprint = conversationFingerprint(opening);

  it("agrees across the requests of one conversation, however its later history grows or is trimmed", () => {
    expect(fingerprint).toMatch(/^[0-9a-f]{24}$/u);
    const later = [
      user("context"),
      user("say hi"),
      assistant("hi"),
      user("more"),
      assistant("ok"),
      user("again"),
    ];
    expect(conversationFingerprint({ ...opening, items: later })).toBe(fingerprint);
    const trimmed = [user("context"), user("say hi"), assistant("summary of what happened"), user("again")];
    expect(conversationFingerprint({ ...opening, items: trimmed })).toBe(fingerprint);
    const handedOff: ConversationItem[] = [
      user("context"),
      user("say hi"),
      { type: "function_call", callId: "c1", name: "paint", arguments: "{}" },
      { type: "function_call_output", callId: "c1", output: "done" },
    ];
    expect(conversationFingerprint({ ...opening, items: handedOff })).toBe(fingerprint);
  });

  it("differs between conversations that open differently, or in another agent or instructions", () => {
    const others = [
      conversationFingerprint({ ...opening, items: [user("context"), user("say hello")] }),
      conversationFingerprint({ ...opening, items: [user("say hi")] }),
      conversationFingerprint({ ...opening, agentId: "helper" }),
      conversationFingerprint({ ...opening, instructions: "Be thorough." }),
      conversationFingerprint({ agentId: "main", items: opening.items }),
    ];
    expect(new Set([fingerprint, ...others]).size).toBe(others.length + 1);
  });
});

describe("branchSessionKey", () => {
  it("is stable per branch, differs between branches, and stays a valid key for the longest root", () => {
    expect(branchSessionKey("pck-t1", "a")).toBe(branchSessionKey("pck-t1", "a"));
    expect(branchSessionKey("pck-t1", "a")).not.toBe(branchSessionKey("pck-t1", "b"));
    expect(branchSessionKey("pck-t1", "a")).toMatch(/^pck-t1\.b-[0-9a-f]{12}$/u);
    const long = `conv-${"c".repeat(123)}`;
    expect(isValidSessionKey(branchSessionKey(long, "a"))).toBe(true);
  });
});
