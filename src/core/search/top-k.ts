/**
 * The best `k` of the first `count` documents in `candidates`, best first: higher `scores[doc]` first, then
 * lower `tieRank[doc]` (ranks must be distinct, so the order is total and deterministic). Uses a binary heap of
 * size `k` whose root is the worst document kept: O(count · log k), no allocation per candidate.
 */
export function selectTopK(
  candidates: Uint32Array,
  count: number,
  k: number,
  scores: Float64Array,
  tieRank: Uint32Array,
): number[] {
  const capacity = Math.min(k, count);
  if (capacity <= 0) return [];
  const heap = new Uint32Array(capacity);
  let size = 0;
  for (let index = 0; index < count; index += 1) {
    const doc = candidates[index]!;
    if (size < capacity) {
      heap[size] = doc;
      siftUp(heap, size, scores, tieRank);
      size += 1;
    } else if (ranksBefore(doc, heap[0]!, scores, tieRank)) {
      heap[0] = doc;
      siftDown(heap, size, scores, tieRank);
    }
  }
  const best = Array.from(heap);
  best.sort((left, right) => (ranksBefore(left, right, scores, tieRank) ? -1 : 1));
  return best;
}

/** True when `left` ranks before `right`: a higher score, or an equal score and a lower tie rank. */
function ranksBefore(left: number, right: number, scores: Float64Array, tieRank: Uint32Array): boolean {
  const leftScore = scores[left]!;
  const rightScore = scores[right]!;
  return leftScore !== rightScore ? leftScore > rightScore : tieRank[left]! < tieRank[right]!;
}

/** Moves the item at `start` up while it ranks after its parent (the worst item stays at the root). */
function siftUp(heap: Uint32Array, start: number, scores: Float64Array, tieRank: Uint32Array): void {
  let child = start;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!ranksBefore(heap[parent]!, heap[child]!, scores, tieRank)) return;
    swap(heap, parent, child);
    child = parent;
  }
}

function siftDown(heap: Uint32Array, size: number, scores: Float64Array, tieRank: Uint32Array): void {
  let parent = 0;
  for (;;) {
    const left = parent * 2 + 1;
    if (left >= size) return;
    const right = left + 1;
    let worse = left;
    if (right < size && ranksBefore(heap[left]!, heap[right]!, scores, tieRank)) worse = right;
    if (!ranksBefore(heap[parent]!, heap[worse]!, scores, tieRank)) return;
    swap(heap, parent, worse);
    parent = worse;
  }
}

function swap(heap: Uint32Array, left: number, right: number): void {
  const value = heap[left]!;
  heap[left] = heap[right]!;
  heap[right] = value;
}
