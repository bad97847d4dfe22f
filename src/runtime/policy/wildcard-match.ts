/**
 * Glob match where `*` is any run of characters (also none) and `?` is exactly one character; every other
 * character, regex metacharacters included, matches only itself. No regex is built, and the two-pointer
 * scan is O(pattern × text) at worst, so a hostile pattern cannot blow up.
 */
export function matchWildcard(pattern: string, text: string): boolean {
  const glob = Array.from(pattern);
  const chars = Array.from(text);
  let globIndex = 0;
  let textIndex = 0;
  let starIndex = -1;
  let starText = 0;
  while (textIndex < chars.length) {
    const globChar = glob[globIndex];
    if (globChar !== undefined && globChar !== "*" && (globChar === "?" || globChar === chars[textIndex])) {
      globIndex += 1;
      textIndex += 1;
    } else if (globChar === "*") {
      starIndex = globIndex;
      starText = textIndex;
      globIndex += 1;
    } else if (starIndex !== -1) {
      globIndex = starIndex + 1;
      starText += 1;
      textIndex = starText;
    } else {
      return false;
    }
  }
  while (glob[globIndex] === "*") globIndex += 1;
  return globIndex === glob.length;
}
