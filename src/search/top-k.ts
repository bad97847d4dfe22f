/** True when document `left` ranks before document `right`; must be a strict total order. */
export type RanksBefore = (left: number, right: number) => boolean;

/**
 * The best `k` of `count` candidate documents (the first `count` items of `candidates`), best first, using a
 * binary heap of size `k` whose root is the worst kept document: O(count · log k), no per-candidate
 * allocation. `skip` leaves out documents that are already placed.
 */
export function selectTopK(
  candidates: Uint32Array,
  count: number,
  k: number,
  ranksBefore: RanksBefore,
  skip?: (doc: number) => boolean,
): number[] {
  if (k <= 0 || count <= 0) return [];
  const heap = new Uint32Array(Math.min(k, count));
  let size = 0;
  for (let index = 0; index < count; index += 1) {
    const doc = candidates[index]!;
    if (skip?.(doc)) continue;
    if (size < heap.length) {
      heap[size] = doc;
      siftUp(heap, size, ranksBefore);
      size += 1;
    } else if (ranksBefore(doc, heap[0]!)) {
      heap[0] = doc;
      siftDown(heap, size, ranksBefore);
    }
  }
  const best = Array.from(heap.subarray(0, size));
  best.sort((left, right) => (ranksBefore(left, right) ? -1 : ranksBefore(right, left) ? 1 : 0));
  return best;
}

/** The heap keeps the worst document at the root: a parent never ranks before its children. */
function siftUp(heap: Uint32Array, start: number, ranksBefore: RanksBefore): void {
  let child = start;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!ranksBefore(heap[parent]!, heap[child]!)) return;
    swap(heap, parent, child);
    child = parent;
  }
}

function siftDown(heap: Uint32Array, size: number, ranksBefore: RanksBefore): void {
  let parent = 0;
  for (;;) {
    const left = parent * 2 + 1;
    if (left >= size) return;
    const right = left + 1;
    let worse = left;
    if (right < size && ranksBefore(heap[left]!, heap[right]!)) worse = right;
    if (!ranksBefore(heap[parent]!, heap[worse]!)) return;
    swap(heap, parent, worse);
    parent = worse;
  }
}

function swap(heap: Uint32Array, left: number, right: number): void {
  const value = heap[left]!;
  heap[left] = heap[right]!;
  heap[right] = value;
}
