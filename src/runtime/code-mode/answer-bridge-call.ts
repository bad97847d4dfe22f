import type { ToolSearch } from "../../core/tool-search/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { isObjectRecord } from "../../shared/schema/index.js";
import type { BridgeReply } from "./cell-child.js";
import { MAX_BRIDGE_REPLY_BYTES } from "./limits.js";
import type { BridgeMethod } from "./protocol.js";

/** What a cell's bridge calls run against, and how its calls are tagged. */
export interface BridgeTarget {
  toolSearch: ToolSearch;
  /** The model's call id of the exec that started the cell, handed to every tool call it makes. */
  toolCallId?: string;
}

/**
 * Answers one bridge call from a cell through the run's ToolSearch: `search` and `describe` as the library
 * methods, `call` through `toolSearch.call` and so the whole executor pipeline (policy, hooks, approval,
 * validation, the run's shared sequential schedule, telemetry). Arguments arrive as parsed JSON and are
 * handed over as they are; the ToolSearch validates them. Never rejects: errors become `{ code, message }`
 * replies, which the cell sees as a rejected promise (an Error named "ToolsiftError" with that `code`).
 */
export async function answerBridgeCall(
  target: BridgeTarget,
  method: BridgeMethod,
  args: readonly unknown[],
  signal: AbortSignal,
): Promise<BridgeReply> {
  try {
    const value = await dispatch(target, method, args, signal);
    return encodeValue(value);
  } catch (error) {
    return { ok: false, error: bridgeError(error) };
  }
}

async function dispatch(
  target: BridgeTarget,
  method: BridgeMethod,
  args: readonly unknown[],
  signal: AbortSignal,
): Promise<unknown> {
  const [first, second] = args;
  if (method === "search") {
    const limit = isObjectRecord(second) ? second.limit : undefined;
    return target.toolSearch.search(
      first as string,
      limit === undefined ? undefined : { limit: limit as number },
    );
  }
  if (method === "describe") return target.toolSearch.describe(first as string);
  return target.toolSearch.call(first as string, second === undefined ? {} : second, {
    signal,
    ...(target.toolCallId === undefined ? {} : { toolCallId: target.toolCallId }),
  });
}

function encodeValue(value: unknown): BridgeReply {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    return {
      ok: false,
      error: {
        code: "TOOL_FAILED",
        message: "The tool's answer is not JSON data and cannot be passed into the cell.",
      },
    };
  }
  if (Buffer.byteLength(text) > MAX_BRIDGE_REPLY_BYTES) {
    return {
      ok: false,
      error: {
        code: "TOOL_FAILED",
        message: `The tool's answer is larger than ${MAX_BRIDGE_REPLY_BYTES} bytes and cannot be passed into the cell; ask for less.`,
      },
    };
  }
  return { ok: true, value: text };
}

function bridgeError(error: unknown): { code: string; message: string } {
  if (isToolsiftError(error)) return { code: error.code, message: error.message };
  return {
    code: "INTERNAL",
    message: "Tool Search hit an internal error while answering the cell; try again.",
  };
}
