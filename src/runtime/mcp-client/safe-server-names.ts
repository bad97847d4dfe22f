/** What a server name that keeps no safe character becomes. */
const FALLBACK_NAME = "server";

/**
 * Maps each configured server name to a name safe for catalog ids (`[A-Za-z0-9_-]`): every other character
 * becomes `_`, and a name that then clashes with an earlier one gets `_2`, `_3`, … (config order decides).
 */
export function safeServerNames(names: readonly string[]): Map<string, string> {
  const safe = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    const base = name.replace(/[^A-Za-z0-9_-]/gu, "_") || FALLBACK_NAME;
    let candidate = base;
    for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${base}_${suffix}`;
    taken.add(candidate);
    safe.set(name, candidate);
  }
  return safe;
}
