/**
 * True when `value` nests arrays and objects deeper than `maxDepth` levels (a top-level object is level 1).
 * Walks with its own stack, never recursion, so a hostile depth cannot overflow the call stack; stops at the
 * first container past the limit.
 */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value;
    if (typeof current !== "object" || current === null) continue;
    if (next.depth > maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === "object" && child !== null) pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return false;
}
