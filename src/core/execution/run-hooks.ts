import { safeRead } from "../../shared/schema/index.js";
import { cancelledByCaller } from "./run-tool.js";
import { thrownMessage } from "./thrown-message.js";
import type { ExecutionHooks, ToolCallEvent } from "./types.js";

/** What a hook step decided: go on (optionally with new arguments), or block with a reason. */
export type HookVerdict = { block: string } | { params: unknown } | undefined;

/** Reasons used when a hook blocks without saying why. */
export const DEFAULT_BLOCK_REASONS = {
  checkPolicy: "denied by policy",
  beforeToolCall: "blocked by a before_tool_call hook",
  requestApproval: "approval was denied",
} as const;

const HOOK_LABELS = {
  checkPolicy: "policy check",
  beforeToolCall: "before_tool_call hook",
  requestApproval: "approval request",
} as const;

type HookName = keyof typeof HOOK_LABELS;

/** Calls one hook, racing it against the caller's abort. A throw becomes a block (fail closed). */
async function callHook(
  hooks: ExecutionHooks,
  name: HookName,
  event: ToolCallEvent,
  signal: AbortSignal | undefined,
): Promise<{ answer: unknown } | { failed: string } | undefined> {
  let hook: unknown;
  try {
    hook = hooks[name];
  } catch (error) {
    return { failed: `${HOOK_LABELS[name]} failed: ${thrownMessage(error)}` };
  }
  if (typeof hook !== "function") return undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelledByCaller(event.entry, signal));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const answer = Promise.resolve().then(() => Reflect.apply(hook, hooks, [event]));
    return { answer: await Promise.race([answer, aborted]) };
  } catch (error) {
    if (signal?.aborted) throw cancelledByCaller(event.entry, signal);
    return { failed: `${HOOK_LABELS[name]} failed: ${thrownMessage(error)}` };
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

function reasonOf(answer: unknown, fallback: string): string {
  const reason = safeRead(answer, "reason");
  return typeof reason === "string" && reason.length > 0 ? reason : fallback;
}

/**
 * Runs one pipeline hook (`checkPolicy`, `beforeToolCall` or `requestApproval`) and reads its answer
 * without trusting it. Fail closed: only `{ allowed: true }` / `{ approved: true }` let a call pass those
 * steps, and a hook that throws blocks with `<hook> failed: <message>`. A `beforeToolCall` answer with a
 * `block` blocks; one with a defined `params` rewrites the arguments; anything else changes nothing.
 * A hook property whose getter throws counts as a throwing hook.
 * The caller's abort while a hook is pending is CANCELLED at once.
 */
export async function runHook(
  hooks: ExecutionHooks,
  name: HookName,
  event: ToolCallEvent,
  signal: AbortSignal | undefined,
): Promise<HookVerdict> {
  if (signal?.aborted) throw cancelledByCaller(event.entry, signal);
  const outcome = await callHook(hooks, name, event, signal);
  if (outcome === undefined) return undefined;
  if ("failed" in outcome) return { block: outcome.failed };
  const { answer } = outcome;
  if (name === "checkPolicy") {
    return safeRead(answer, "allowed") === true
      ? undefined
      : { block: reasonOf(answer, DEFAULT_BLOCK_REASONS[name]) };
  }
  if (name === "requestApproval") {
    return safeRead(answer, "approved") === true
      ? undefined
      : { block: reasonOf(answer, DEFAULT_BLOCK_REASONS[name]) };
  }
  if (typeof answer !== "object" || answer === null) return undefined;
  const block = safeRead(answer, "block");
  if (block !== undefined && block !== false && block !== null) {
    return { block: typeof block === "string" && block.length > 0 ? block : DEFAULT_BLOCK_REASONS[name] };
  }
  const params = safeRead(answer, "params");
  return params === undefined ? undefined : { params };
}
