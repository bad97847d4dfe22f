import { randomFillSync } from "node:crypto";

/** Random bytes drawn from the system's CSPRNG at once, then handed out in slices. */
const POOL_BYTES = 4096;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `bytes` random bytes as lowercase hex, from the same generator as `randomBytes`. The bytes come from a
 * pool filled 4 KiB at a time (as Node does for `randomUUID`): a `randomBytes` call per id cost a
 * synchronous trip into the generator each time, several times per gateway run. Each byte is handed out
 * once. For ids, not for keys: the pool sits in the process's memory until used.
 */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(Math.max(POOL_BYTES, bytes)));
    offset = 0;
  }
  const text = pool.toString("hex", offset, offset + bytes);
  offset += bytes;
  return text;
}
