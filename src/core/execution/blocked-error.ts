import { ToolsiftError } from "../../shared/errors/index.js";
import type { CatalogEntry } from "../catalog/index.js";

/** The structured side of a block, as hosts and session logs see it. */
export interface BlockedDetails {
  readonly status: "blocked";
  readonly reason: string;
}

/** A call stopped by policy, a `before_tool_call` hook or a denied approval (code `BLOCKED`). */
export class BlockedError extends ToolsiftError {
  /** `{ status: "blocked", reason }`: the reason exactly as the policy, hook or approver gave it. */
  readonly details: BlockedDetails;

  constructor(message: string, reason: string) {
    super("BLOCKED", message);
    this.details = { status: "blocked", reason };
  }
}

/**
 * The block error for `entry`: `Tool "<id>" was blocked: <reason>`, or, for a native tool that declares an
 * outputSchema, `Tool "<id>" was blocked before execution: <reason>`. The reason is not rewritten.
 */
export function blockedError(entry: CatalogEntry, reason: string): BlockedError {
  const contract = entry.source === "native" && entry.outputSchema !== undefined;
  const verb = contract ? "was blocked before execution" : "was blocked";
  return new BlockedError(`Tool "${entry.id}" ${verb}: ${reason}`, reason);
}
