import { readFileSync } from "node:fs";
import {
  MAX_CONNECTIONS,
  PRESSURE_SHARE,
  REFUSAL_MIN,
  REFUSAL_SHARE,
  RESERVED_DESCRIPTORS_MIN,
  RESERVED_DESCRIPTORS_SHARE,
} from "./limits.js";

/** Where Linux shows a process's resource limits. */
const PROC_LIMITS_PATH = "/proc/self/limits";

/** The process's open-file limits, as the kernel reports them. */
export type DescriptorLimit = { soft: number; hard: number | "unlimited" };

/**
 * The soft and hard limits on open files (`RLIMIT_NOFILE`) from the text of `/proc/self/limits`, or
 * undefined where that file does not exist (not Linux) or does not say. Node raises the soft limit to the
 * hard limit when it starts, so the soft limit read here is already as high as the process may go.
 */
export function readDescriptorLimit(procLimitsText?: string): DescriptorLimit | undefined {
  let text = procLimitsText;
  if (text === undefined) {
    try {
      text = readFileSync(PROC_LIMITS_PATH, "utf8");
    } catch {
      return undefined;
    }
  }
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/mu.exec(text);
  if (match?.[1] === undefined || match[2] === undefined || match[1] === "unlimited") return undefined;
  const soft = Number(match[1]);
  return { soft, hard: match[2] === "unlimited" ? "unlimited" : Number(match[2]) };
}

/** How many client connections a server holds, and what happens beyond. */
export type ConnectionBudget = {
  /** Connections served; a new one beyond first evicts an idle connection, else is refused. */
  cap: number;
  /** Connections beyond `cap` and up to this are answered 503 with `Retry-After`; more are closed at once. */
  refusalLimit: number;
  /** From this many open connections on, idle and header-less connections are closed early. */
  pressure: number;
  /** The soft descriptor limit the budget was computed from, when known. */
  descriptorLimit?: number;
};

/**
 * The connection budget for a server allowed `maxConnections` (default MAX_CONNECTIONS) in a process whose
 * soft descriptor limit is `softLimit` (unknown: `maxConnections` alone decides). Every connection, refused
 * ones included, stays below the soft limit minus the descriptors reserved for files, children and
 * provider sockets (RESERVED_DESCRIPTORS_MIN or RESERVED_DESCRIPTORS_SHARE of the limit, the larger).
 */
export function connectionBudget(options: { maxConnections?: number; softLimit?: number }): ConnectionBudget {
  const wanted = Math.max(1, Math.floor(options.maxConnections ?? MAX_CONNECTIONS));
  const soft = options.softLimit;
  const available =
    soft === undefined
      ? Number.POSITIVE_INFINITY
      : soft - Math.max(RESERVED_DESCRIPTORS_MIN, Math.ceil(soft * RESERVED_DESCRIPTORS_SHARE));
  const refusals = (cap: number) => Math.max(REFUSAL_MIN, Math.ceil(cap * REFUSAL_SHARE));
  // The cap leaves room under the descriptor budget for the connections that are only answered 503.
  let cap = wanted;
  if (cap + refusals(cap) > available)
    cap = Math.max(1, Math.floor((available - REFUSAL_MIN) / (1 + REFUSAL_SHARE)));
  const refusalLimit = Math.max(cap, Math.min(cap + refusals(cap), available));
  return {
    cap,
    refusalLimit,
    pressure: Math.max(1, Math.floor(cap * PRESSURE_SHARE)),
    ...(soft === undefined ? {} : { descriptorLimit: soft }),
  };
}
