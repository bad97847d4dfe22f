import * as z from "zod";
import { MAX_CHILD_MESSAGE_CHARS } from "./limits.js";

/** The bridge methods a cell may ask the parent for (`callValue` is `call` read inside the sandbox). */
export const BRIDGE_METHODS = ["search", "describe", "call"] as const;

/** A bridge method name. */
export type BridgeMethod = (typeof BRIDGE_METHODS)[number];

const callId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const childMessage = z.union([
  z.strictObject({ type: z.literal("ready") }),
  z.strictObject({ type: z.literal("call"), id: callId, method: z.enum(BRIDGE_METHODS), args: z.string() }),
  z.strictObject({
    type: z.literal("log"),
    level: z.enum(["log", "info", "warn", "error"]),
    text: z.string(),
  }),
  z.strictObject({ type: z.literal("done"), ok: z.literal(true), value: z.string() }),
  z.strictObject({
    type: z.literal("done"),
    ok: z.literal(false),
    error: z.strictObject({ code: z.string().regex(/^[A-Z][A-Z0-9_]{0,39}$/u), message: z.string() }),
  }),
]);

/** A message from a child, after validation. */
export type ChildMessage = z.infer<typeof childMessage>;

/** A message the parent sends to a child. */
export type ParentMessage =
  | { type: "run"; source: string; timeoutMs: number }
  | { type: "reply"; id: number; ok: true; value: string }
  | { type: "reply"; id: number; ok: false; error: { code: string; message: string } };

/** The result of reading one raw IPC message: the message, or why it breaks the protocol. */
export type ReadResult = { ok: true; message: ChildMessage } | { ok: false; reason: string };

/**
 * Reads one raw IPC message from a child without trusting it: it must be a string of at most
 * MAX_CHILD_MESSAGE_CHARS holding JSON that matches one of the known message shapes exactly.
 */
export function readChildMessage(raw: unknown): ReadResult {
  if (typeof raw !== "string") return { ok: false, reason: "a message that is not a JSON string" };
  if (raw.length > MAX_CHILD_MESSAGE_CHARS) return { ok: false, reason: "an oversized message" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "a message that is not valid JSON" };
  }
  const checked = childMessage.safeParse(parsed);
  if (!checked.success) return { ok: false, reason: "a message of unknown shape or method" };
  return { ok: true, message: checked.data };
}

/** Encodes a message for a child: one JSON string. */
export function encodeParentMessage(message: ParentMessage): string {
  return JSON.stringify(message);
}
