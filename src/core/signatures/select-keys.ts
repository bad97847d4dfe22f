/**
 * The first `limit` keys in signature order: required keys first, then optional ones, each group by code
 * units. A bounded insertion pass (O(keys × limit)), so an object with a million properties is never sorted.
 */
export function selectKeys(keys: readonly string[], required: ReadonlySet<string>, limit: number): string[] {
  const selected: string[] = [];
  if (limit <= 0) return selected;
  for (const key of keys) {
    const last = selected[selected.length - 1];
    if (selected.length === limit && last !== undefined && !comesBefore(key, last, required)) continue;
    let index = selected.length;
    while (index > 0 && comesBefore(key, selected[index - 1] as string, required)) index -= 1;
    selected.splice(index, 0, key);
    if (selected.length > limit) selected.pop();
  }
  return selected;
}

function comesBefore(left: string, right: string, required: ReadonlySet<string>): boolean {
  const leftRequired = required.has(left);
  if (leftRequired !== required.has(right)) return leftRequired;
  return left < right;
}
