/** Reads one property without trusting the object: throwing getters and revoked Proxies yield `undefined`. */
export function safeRead(value: unknown, key: string): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Reads a string property; anything that is not a string (or throws) gives `fallback`. */
export function safeReadString(value: unknown, key: string, fallback = ""): string {
  const read = safeRead(value, key);
  return typeof read === "string" ? read : fallback;
}
