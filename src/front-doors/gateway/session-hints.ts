import { createHash } from "node:crypto";
import type { ConversationItem } from "../../runtime/providers/index.js";
import { isObjectRecord } from "../../shared/schema/index.js";

/** Claude Code names its conversation in this header on every request. */
export const CLAUDE_CODE_SESSION_HEADER = "x-claude-code-session-id";

/**
 * What a request says about its conversation besides `x-toolsift-session` and `previous_response_id`, read
 * from the raw body and headers (so the three request parsers need not know): each value as the client sent
 * it, already checked to be a non-empty string of bounded length. Absent fields are left out.
 */
export type SessionHints = {
  /** Responses `conversation`: a string id or `{ id }`. */
  conversation?: string;
  /** Responses `prompt_cache_key` (Codex sends its thread id there). */
  promptCacheKey?: string;
  /** Claude Code's `x-claude-code-session-id` header, else the session id inside `metadata.user_id`. */
  claudeCodeSession?: string;
};

/** Where a run's session key came from, strongest first (`chooseSessionKey`). */
export type SessionKeySource =
  | "header"
  | "previous_response_id"
  | "conversation"
  | "prompt_cache_key"
  | "claude_code"
  | "fingerprint";

/** A run's session key and what chose it. */
export type SessionKeyChoice = { sessionKey: string; source: SessionKeySource };

/** Client values longer than this are hashed rather than kept readable in the key. */
const MAX_READABLE_HINT_CHARS = 96;
/** Values longer than this are not read as hints at all (a session id is short). */
const MAX_HINT_CHARS = 1024;
/** Hex characters of a SHA-256 kept in a derived key: 96 bits, no collision between real conversations. */
const HASH_HEX_CHARS = 24;
/** A client value kept as it is in a derived key: what a session key may hold, starting alphanumeric. */
const READABLE_HINT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** The session id at the end of Claude Code's older `metadata.user_id` form `user_<h>_account_<uuid>_session_<uuid>`. */
const LEGACY_USER_ID_SESSION = /_session_([A-Za-z0-9-]{1,128})$/;

/** Reads the session hints of a run request from its headers (`c.req`) and raw JSON body; never throws. */
export function readSessionHints(
  headers: { header(name: string): string | undefined },
  body: unknown,
): SessionHints {
  const hints: SessionHints = {};
  const record = isObjectRecord(body) ? body : {};
  const conversation = record.conversation;
  const conversationId = isObjectRecord(conversation) ? conversation.id : conversation;
  if (isHint(conversationId)) hints.conversation = conversationId;
  if (isHint(record.prompt_cache_key)) hints.promptCacheKey = record.prompt_cache_key;
  const claudeCode = headers.header(CLAUDE_CODE_SESSION_HEADER) ?? sessionInUserId(record.metadata);
  if (isHint(claudeCode)) hints.claudeCodeSession = claudeCode;
  return hints;
}

/**
 * The one decision of a run's session key, strongest first: `x-toolsift-session`, the session of
 * `previous_response_id`, then the hints (`conversation`, `prompt_cache_key`, Claude Code's session), else a
 * fingerprint of the conversation's opening turn (`conversationFingerprint`). A key derived from a client
 * value carries a prefix naming its source (`conv-`, `pck-`, `cc-`, `fp-`), and the value itself only when
 * it is already a short plain key; anything else is hashed. So every derived key is a valid session key, and
 * one the client could have named with `x-toolsift-session` anyway: no hint reaches a session its sender could
 * not name directly.
 */
export function chooseSessionKey(options: {
  header?: string;
  previousResponseSession?: string;
  hints: SessionHints;
  fingerprint: () => string;
}): SessionKeyChoice {
  const { header, previousResponseSession, hints } = options;
  if (header !== undefined) return { sessionKey: header, source: "header" };
  if (previousResponseSession !== undefined)
    return { sessionKey: previousResponseSession, source: "previous_response_id" };
  if (hints.conversation !== undefined)
    return { sessionKey: derivedKey("conv", hints.conversation), source: "conversation" };
  if (hints.promptCacheKey !== undefined)
    return { sessionKey: derivedKey("pck", hints.promptCacheKey), source: "prompt_cache_key" };
  if (hints.claudeCodeSession !== undefined)
    return { sessionKey: derivedKey("cc", hints.claudeCodeSession), source: "claude_code" };
  return { sessionKey: `fp-${options.fingerprint()}`, source: "fingerprint" };
}

/**
 * Whether a session chosen this way is one whose client resends the whole conversation each time (Codex,
 * Claude Code, any client without an id), so the request's history is reconciled with the log and a client
 * that rewrote it moves to a branch; a header, `previous_response_id` or `conversation` name a session whose
 * client sends the new items only (or is trusted to name what it means).
 */
export function resendsWholeHistory(source: SessionKeySource): boolean {
  return source === "prompt_cache_key" || source === "claude_code" || source === "fingerprint";
}

/**
 * A fingerprint of a conversation for clients that name none: SHA-256 over the agent, the instructions and
 * the opening turn (every item before the model's first answer, normally the first user message or
 * messages). Every request of one conversation resends that opening turn unchanged, however later history
 * is compacted or trimmed; two conversations that open differently differ. Two that open with the same
 * instructions and the same words share a session (see DESIGN.md, "One conversation is one session").
 */
export function conversationFingerprint(options: {
  agentId: string;
  instructions?: string;
  items: readonly ConversationItem[];
}): string {
  const opening: ConversationItem[] = [];
  for (const item of options.items) {
    if (item.type === "function_call" || (item.type === "message" && item.role === "assistant")) break;
    opening.push(item);
  }
  return hashHex(JSON.stringify([options.agentId, options.instructions ?? "", opening]));
}

/** A session key for branch `anchors` of `root` (`reconcile-history.ts`): stable, and within the key rule. */
export function branchSessionKey(root: string, branch: string): string {
  const suffix = `.b-${hashHex(branch).slice(0, 12)}`;
  const base = root.length + suffix.length <= 128 ? root : root.slice(0, 128 - suffix.length);
  return `${base}${suffix}`;
}

function derivedKey(prefix: string, value: string): string {
  if (value.length <= MAX_READABLE_HINT_CHARS && READABLE_HINT.test(value)) return `${prefix}-${value}`;
  // "--" cannot come from a readable value (those start alphanumeric), so hashed and kept keys never meet.
  return `${prefix}--${hashHex(value)}`;
}

function hashHex(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, HASH_HEX_CHARS);
}

function isHint(value: unknown): value is string {
  return typeof value === "string" && value.trim().length > 0 && value.length <= MAX_HINT_CHARS;
}

/** The session id in Claude Code's `metadata.user_id`: a JSON text with `session_id`, or the older `…_session_<id>`. */
function sessionInUserId(metadata: unknown): string | undefined {
  if (!isObjectRecord(metadata)) return undefined;
  const userId = metadata.user_id;
  if (typeof userId !== "string" || userId.length > MAX_HINT_CHARS) return undefined;
  if (userId.trimStart().startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(userId);
      const session = isObjectRecord(parsed) ? parsed.session_id : undefined;
      return typeof session === "string" ? session : undefined;
    } catch {
      return undefined;
    }
  }
  return LEGACY_USER_ID_SESSION.exec(userId)?.[1];
}
