/** FNV-1a 32-bit offset basis: the hash of the empty text. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
/** FNV-1a 32-bit prime: `hash = imul(hash ^ code, FNV_PRIME)` per UTF-16 code unit. */
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the code units of `text[start..end)` (the hash tables of words and exact keys use it). */
export function fnvHash(text: string, start = 0, end = text.length): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash;
}
