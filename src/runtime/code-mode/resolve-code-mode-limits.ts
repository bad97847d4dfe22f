import {
  DEFAULT_CELL_TIMEOUT_MS,
  DEFAULT_MAX_BRIDGE_CALLS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_POOL_SIZE,
  DEFAULT_YIELD_MS,
  MAX_BRIDGE_CALLS_CEILING,
  MAX_CELL_TIMEOUT_MS,
  MAX_LOG_BYTES_CEILING,
  MAX_MEMORY_LIMIT_BYTES,
  MAX_POOL_SIZE,
  MAX_YIELD_MS,
  MIN_CELL_TIMEOUT_MS,
  MIN_LOG_BYTES,
  MIN_MEMORY_LIMIT_BYTES,
} from "./limits.js";

/** The effective limits of one Code Mode instance. */
export interface CodeModeLimits {
  timeoutMs: number;
  memoryLimitBytes: number;
  maxBridgeCalls: number;
  maxLogBytes: number;
  poolSize: number;
}

/**
 * Clamps the numeric options: a finite number is rounded and clamped into its range; anything else (missing,
 * NaN, a string) falls back to the default. `timeoutMs` follows `codeMode.timeoutMs` (1,000..60,000).
 */
export function resolveCodeModeLimits(options: {
  timeoutMs?: unknown;
  memoryLimitBytes?: unknown;
  maxBridgeCalls?: unknown;
  maxLogBytes?: unknown;
  poolSize?: unknown;
}): CodeModeLimits {
  return {
    timeoutMs: clamp(options.timeoutMs, DEFAULT_CELL_TIMEOUT_MS, MIN_CELL_TIMEOUT_MS, MAX_CELL_TIMEOUT_MS),
    memoryLimitBytes: clamp(
      options.memoryLimitBytes,
      DEFAULT_MEMORY_LIMIT_BYTES,
      MIN_MEMORY_LIMIT_BYTES,
      MAX_MEMORY_LIMIT_BYTES,
    ),
    maxBridgeCalls: clamp(options.maxBridgeCalls, DEFAULT_MAX_BRIDGE_CALLS, 1, MAX_BRIDGE_CALLS_CEILING),
    maxLogBytes: clamp(options.maxLogBytes, DEFAULT_MAX_LOG_BYTES, MIN_LOG_BYTES, MAX_LOG_BYTES_CEILING),
    poolSize: clamp(options.poolSize, DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
  };
}

/** A `yieldMs` as exec and wait use it: default 10,000, clamped to 0..60,000. */
export function resolveYieldMs(value: unknown): number {
  return clamp(value, DEFAULT_YIELD_MS, 0, MAX_YIELD_MS);
}

function clamp(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}
