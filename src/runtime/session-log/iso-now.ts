/** The last time isoNow formatted, and its text: a run logs several events within one millisecond. */
let lastStamp = { ms: Number.NaN, iso: "" };

/** `new Date().toISOString()`, formatted once per millisecond. */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastStamp.ms) lastStamp = { ms, iso: new Date(ms).toISOString() };
  return lastStamp.iso;
}
