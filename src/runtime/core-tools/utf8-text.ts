/**
 * The length of `bytes` without a trailing UTF-8 sequence that was cut short, so a byte-limited cut never
 * ends in half a character.
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  let index = bytes.length - 1;
  let continuation = 0;
  while (index >= 0 && continuation < 3 && ((bytes[index] ?? 0) & 0xc0) === 0x80) {
    index -= 1;
    continuation += 1;
  }
  if (index < 0) return bytes.length;
  const lead = bytes[index] ?? 0;
  const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return continuation + 1 < expected ? index : bytes.length;
}

/** Decodes bytes as UTF-8 text, dropping a cut-short last character; invalid bytes become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, completeUtf8Length(bytes)).toString("utf8");
}
